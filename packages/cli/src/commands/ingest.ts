import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { consoleLogger, errorMessage, isQuarryError, parseSettings, type Element, type Logger, type SourceDocument } from '@quarry/core';
import { createSearchIndexSource, outputPathFor, searchIndexConfig, serializeElements, writeFileAtomic, type SearchIndexConfig } from '@quarry/connectors';
import { PartitionPool, type PartitionTask } from '@quarry/nodes';
import { excludeMetadata } from '../ingest/metadata-exclude.js';
import { partitionByApi } from '../ingest/partition-api.js';
import { documentsInFlight, partitionPoolOptions } from '../partition-processes.js';
import { UserError } from '../user-error.js';
import { DEFAULT_PARTITION_ENDPOINT, PARTITION_ENDPOINT_ENV, SERVICE_API_KEY_ENV, type IngestSearchIndexOptions } from './ingest-flags.js';

/** What one run did. */
export interface IngestSummary {
  total: number;
  written: number;
  failed: number;
  elements: number;
  output_dir: string;
  failures: Array<{ record_id: string; code: string; message: string }>;
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
    // As `unstructured-ingest`: every returned element carries the document's data_source.
    for (const el of elements) el.metadata.data_source = structuredClone(doc.data_source);
    return elements;
  };
}

/**
 * Runs `quarry ingest search-index`: lists the index through the search-index source, partitions up
 * to `--num-processes` documents at a time (in the child processes of a `PartitionPool`, as `quarry
 * run --num-processes` does, or by requests to the partition endpoint with `--partition-by-api`),
 * removes `--metadata-exclude` fields and writes `<output>/<record_id>.json`. A document that fails is reported and the others go on; the exit
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
    pool = new PartitionPool(partitionPoolOptions(o));
    partition = localPartitioner(pool, o.strategy, logger);
  }
  const output = o.output ?? o.outputDir;
  if (!output) throw new UserError('ingest search-index: --output <dir> is required');
  const outputDir = path.resolve(output);
  // With the endpoint, --num-processes is the number of requests in flight.
  const inFlightMax = o.partitionByApi ? (o.numProcesses ?? availableParallelism()) : documentsInFlight(o);
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
        // Pull the next document only when a slot is free: memory stays bounded by the processes.
        if (inFlight.size >= inFlightMax) await Promise.race(inFlight);
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
