import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { consoleLogger, errorMessage, isQuarryError, parseSettings, type Element, type Logger, type SourceDocument } from '@quarry/core';
import { createSearchIndexSource, outputPathFor, searchIndexConfig, serializeElements, writeFileAtomic, type SearchIndexConfig } from '@quarry/connectors';
import { PartitionPool, type PartitionTask } from '@quarry/nodes';
import { excludeMetadata } from '../ingest/metadata-exclude.js';
import { DEFAULT_PARTITION_ENDPOINT, partitionByApi } from '../ingest/partition-api.js';
import { UserError } from '../user-error.js';

/** Environment variable holding the service API key for `--partition-by-api`. */
export const SERVICE_API_KEY_ENV = 'QUARRY_SERVICE_API_KEY';
/** Environment variable overriding the default partition endpoint. */
export const PARTITION_ENDPOINT_ENV = 'QUARRY_PARTITION_ENDPOINT';

/** Options of `quarry ingest search-index`, as commander parses them. */
export interface IngestSearchIndexOptions {
  hosts?: string[];
  indexName: string;
  cloudId?: string;
  apiKeyId?: string;
  username?: string;
  password?: string;
  bearerAuth?: string;
  apiKey?: string;
  caCerts?: string;
  sslAssertFingerprint?: string;
  fields?: string[];
  metadataExclude?: string[];
  outputDir: string;
  numProcesses: number;
  strategy: string;
  partitionByApi?: boolean;
  partitionEndpoint?: string;
  serviceApiKey?: string;
  batchSize?: number;
  json?: boolean;
}

/** What one run did. */
export interface IngestSummary {
  total: number;
  written: number;
  failed: number;
  elements: number;
  output_dir: string;
  failures: Array<{ record_id: string; code: string; message: string }>;
}

const STRATEGIES = ['auto', 'fast', 'hi_res', 'ocr_only', 'vlm'];

/** Splits a comma-separated option value; empty items are dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a positive integer, got "${value}"`);
  return n;
}

/**
 * Adds `ingest search-index` (every option of the SPEC.md batch ingestion client table) to a program.
 *
 * @example
 * ```ts
 * const program = new Command('quarry');
 * addIngestCommand(program);
 * await program.parseAsync(['node', 'quarry', 'ingest', 'search-index', '--hosts', 'localhost:9200', '--index-name', 'docs', '--output-dir', 'out']);
 * ```
 */
export function addIngestCommand(program: Command): Command {
  const ingest = program.command('ingest').description('batch ingestion: read documents from a source, partition them, write element JSON files');
  ingest
    .command('search-index')
    .description('read every document of a search index, partition it locally or with the partition endpoint, write <record_id>.json files')
    .option('--hosts <hosts>', 'search hosts as <hostname>:<port-number> or URLs, comma-separated', commaList)
    .requiredOption('--index-name <name>', 'index name')
    .option('--cloud-id <id>', 'cloud instance id')
    .option('--api-key-id <id>', 'cloud API key id (the key itself in --api-key)')
    .option('--username <user>', 'basic authentication user')
    .option('--password <password>', 'basic authentication password')
    .option('--bearer-auth <token>', 'bearer token')
    .option('--api-key <key>', 'API key for the search cluster (Encoded form, or the key with --api-key-id)')
    .option('--ca-certs <path>', 'path to a certificate authority file')
    .option('--ssl-assert-fingerprint <fingerprint>', 'SHA-256 fingerprint of the cluster certificate')
    .option('--fields <fields>', 'comma-separated _source field names to read (default: all)', commaList)
    .option('--metadata-exclude <fields>', 'comma-separated metadata fields to exclude (dotted paths allowed)', commaList)
    .requiredOption('--output-dir <dir>', 'local output directory')
    .option('--num-processes <n>', 'documents partitioned in parallel (child processes)', positiveInt, 2)
    .addOption(new Option('--strategy <strategy>', 'partitioning strategy, for example hi_res').choices(STRATEGIES).default('auto'))
    .option('--partition-by-api', 'send each document to the legacy partition endpoint instead of partitioning locally')
    .option('--partition-endpoint <url>', `partition endpoint URL or base URL (default $${PARTITION_ENDPOINT_ENV} or ${DEFAULT_PARTITION_ENDPOINT})`)
    .option('--service-api-key <key>', `API key of the partition endpoint (default $${SERVICE_API_KEY_ENV})`)
    .option('--batch-size <n>', 'search hits per page', positiveInt)
    .option('--json', 'print the summary as JSON')
    .action(async (opts: IngestSearchIndexOptions) => {
      await ingestCommand(opts);
    });
  return ingest;
}

/** The search-index connector config the options stand for, validated; problems are one {@link UserError} line. */
export function sourceConfigFromOptions(o: IngestSearchIndexOptions): SearchIndexConfig {
  const raw: Record<string, unknown> = {
    index_name: o.indexName,
    ...(o.hosts ? { hosts: o.hosts } : {}),
    ...(o.cloudId ? { cloud_id: o.cloudId } : {}),
    ...(o.apiKey ? { search_api_key: o.apiKey } : {}),
    ...(o.apiKeyId ? { api_key_id: o.apiKeyId } : {}),
    ...(o.username ? { username: o.username } : {}),
    ...(o.password ? { password: o.password } : {}),
    ...(o.bearerAuth ? { bearer_auth: o.bearerAuth } : {}),
    ...(o.caCerts ? { ca_certs: path.resolve(o.caCerts) } : {}),
    ...(o.sslAssertFingerprint ? { ssl_assert_fingerprint: o.sslAssertFingerprint } : {}),
    ...(o.fields ? { fields: o.fields } : {}),
    ...(o.batchSize ? { batch_size: o.batchSize } : {}),
  };
  const parsed = parseSettings(searchIndexConfig, raw);
  if (!parsed.ok) {
    const flag = (p: string) => (p ? `--${p.slice(1).replace(/_/g, '-').replace('search-api-key', 'api-key')}` : 'options');
    throw new UserError(`ingest search-index: ${parsed.problems.map((p) => `${flag(p.path)}: ${p.message}`).join('; ')}`);
  }
  return parsed.value;
}

/** Partitions one document, locally in the worker pool or with the partition endpoint. */
type Partitioner = (doc: SourceDocument, bytes: Uint8Array, signal: AbortSignal) => Promise<Element[]>;

function localPartitioner(pool: PartitionPool, strategy: string, logger: Logger): Partitioner {
  return (doc, bytes, signal) => {
    const request: PartitionTask['request'] = {
      filename: doc.filename,
      ...(doc.filetype ? { filetype: doc.filetype } : {}),
      ...(doc.last_modified ? { last_modified: doc.last_modified } : {}),
      data_source: doc.data_source,
      strategy: strategy as PartitionTask['request']['strategy'],
    };
    // The pool moves a copy of the bytes to the worker; an interrupt (the signal) stops the document.
    return pool.partition(bytes, request, { signal, logger });
  };
}

function apiPartitioner(endpoint: string, apiKey: string, strategy: string): Partitioner {
  return async (doc, bytes, signal) => {
    const elements = await partitionByApi(bytes, doc.filename, { endpoint, apiKey, fields: { strategy } }, signal);
    // As the reference: every returned element carries the document's data_source.
    for (const el of elements) el.metadata.data_source = structuredClone(doc.data_source);
    return elements;
  };
}

/**
 * Runs `quarry ingest search-index`: lists the index through the search-index source, partitions up
 * to `--num-processes` documents at a time (in the child processes of a `PartitionPool`, as `quarry
 * run --num-processes` does, or by requests to the partition endpoint with `--partition-by-api`),
 * removes `--metadata-exclude` fields and writes `<output-dir>/<record_id>.json`. A document that fails is reported and the others go on; the exit
 * code is 1 when any failed.
 */
export async function ingestCommand(o: IngestSearchIndexOptions, logger: Logger = consoleLogger()): Promise<IngestSummary> {
  const config = sourceConfigFromOptions(o);
  let partition: Partitioner;
  let pool: PartitionPool | undefined;
  if (o.partitionByApi) {
    const key = o.serviceApiKey ?? process.env[SERVICE_API_KEY_ENV];
    if (!key) throw new UserError(`ingest search-index: --partition-by-api needs the service API key: --service-api-key or $${SERVICE_API_KEY_ENV}`);
    partition = apiPartitioner(o.partitionEndpoint ?? process.env[PARTITION_ENDPOINT_ENV] ?? DEFAULT_PARTITION_ENDPOINT, key, o.strategy);
  } else {
    if (o.partitionEndpoint) throw new UserError('ingest search-index: --partition-endpoint applies only with --partition-by-api');
    pool = new PartitionPool({ size: o.numProcesses });
    partition = localPartitioner(pool, o.strategy, logger);
  }
  const outputDir = path.resolve(o.outputDir);
  const ac = new AbortController();
  const onSigint = (): void => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  const summary: IngestSummary = { total: 0, written: 0, failed: 0, elements: 0, output_dir: outputDir, failures: [] };
  try {
    await mkdir(outputDir, { recursive: true });
    const source = await createSearchIndexSource(config, { logger, signal: ac.signal });
    try {
      const inFlight = new Set<Promise<void>>();
      for await (const doc of source.list(ac.signal)) {
        summary.total++;
        const p = processOne(doc, partition, o.metadataExclude ?? [], outputDir, ac.signal).then(
          (n) => {
            summary.written++;
            summary.elements += n;
          },
          (e: unknown) => {
            summary.failed++;
            const failure = { record_id: doc.record_id, code: isQuarryError(e) ? e.code : 'NODE_FAILED', message: errorMessage(e) };
            summary.failures.push(failure);
            logger.warn('document failed', failure);
          },
        );
        const tracked = p.finally(() => inFlight.delete(tracked));
        inFlight.add(tracked);
        // Pull the next document only when a slot is free: memory stays bounded by --num-processes.
        if (inFlight.size >= o.numProcesses) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    } finally {
      await source.close?.();
    }
  } finally {
    process.off('SIGINT', onSigint);
    await pool?.close();
  }
  process.stdout.write(o.json ? `${JSON.stringify(summary, null, 2)}\n` : formatIngestSummary(summary));
  process.exitCode = summary.failed > 0 ? 1 : 0;
  return summary;
}

async function processOne(doc: SourceDocument, partition: Partitioner, exclude: readonly string[], outputDir: string, signal: AbortSignal): Promise<number> {
  const bytes = await doc.read(signal);
  const elements = excludeMetadata(await partition(doc, bytes, signal), exclude);
  const target = outputPathFor(outputDir, doc.record_id);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFileAtomic(target, serializeElements(elements, 2), signal);
  return elements.length;
}

/** The human-readable end-of-run summary. */
export function formatIngestSummary(s: IngestSummary): string {
  const lines = [`${s.written} written, ${s.failed} failed of ${s.total} documents; ${s.elements} elements -> ${s.output_dir}`];
  for (const f of s.failures) lines.push(`  FAILED ${f.record_id}: ${f.code}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}
