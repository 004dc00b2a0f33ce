import { documentsInFlight, partitionPoolOptions, type PartitionProcessFlags } from '../partition-processes.js';
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  FileStateStore,
  SECRET_MASK,
  maskValuePasswords,
  type ConnectorSpec,
  type DestinationInput,
  type Job,
  type JobSummary,
  type SourceInput,
  Services,
} from '@quarry/core';
import { createSearchIndexDestination, createSearchIndexSource } from '@quarry/connectors';
import { runDistributed } from '@quarry/distributed';
import { distributedSecret } from '../distributed-secret.js';
import { PARTITION_POOL_SERVICE, PartitionPool } from '@quarry/nodes';
import { defaultEngine } from '../engine.js';
import { readConnectorFile, type ConnectorFile } from '../ingest/connector-file.js';
import { cliLogger } from '../cli-logger.js';
import { attachProgress } from '../progress.js';
import { readJsonFile } from '../read-json.js';
import { UserError } from '../user-error.js';

/** Environment variable naming where incremental state lives when there is no `--output`. */
export const STATE_DIR_ENV = 'QUARRY_STATE_DIR';

/** Options of `quarry run`. */
export interface RunCommandOptions extends PartitionProcessFlags {
  /** Input directory (or file): the local source. */
  input?: string;
  /** Output directory: the local destination. */
  output?: string;
  /** A connector create body file (`type: "search_index"`) to read from instead of `input`. */
  source?: string;
  /** A connector create body file (`type: "search_index"`) to write to instead of `output`. */
  destination?: string;
  concurrency: number;
  reprocessAll?: boolean;
  /** Run on `quarry worker`s through this Redis (`redis://host:port/db`) instead of in-process. */
  redis?: string;
  /** Queue of the workers (with `redis`; default `quarry`). */
  queue?: string;
  progress: boolean;
  json?: boolean;
  /** Leave documents' warnings out of the summary (`--json` keeps them). */
  quiet?: boolean;
}

function describeIndex(c: ConnectorFile): string {
  return `index "${c.config.index_name}" at ${c.config.hosts?.map((h) => maskValuePasswords(h, SECRET_MASK)).join(', ') ?? `cloud id ${c.config.cloud_id?.split(':')[0]}`}`;
}

/**
 * `quarry run WORKFLOW.json (--input DIR | --source CONNECTOR.json) (--output DIR | --destination
 * CONNECTOR.json)`: runs a workflow from local files or a search index, to local files or a search
 * index. CONNECTOR.json is a connector create body `{"name", "type": "search_index", "config"}`.
 */
export async function runCommand(workflowPath: string, opts: RunCommandOptions): Promise<void> {
  if (!opts.input === !opts.source) throw new UserError('run: give one of --input DIR or --source CONNECTOR.json');
  if (!opts.output === !opts.destination) throw new UserError('run: give one of --output DIR or --destination CONNECTOR.json');
  const body = await readJsonFile(workflowPath);
  const input = opts.input === undefined ? undefined : resolve(opts.input);
  const output = opts.output === undefined ? undefined : resolve(opts.output);
  if (input !== undefined) {
    try {
      await stat(input);
    } catch {
      throw new UserError(`input not found: ${opts.input}`);
    }
  }
  const sourceFile = opts.source === undefined ? undefined : await readConnectorFile(opts.source);
  const destinationFile = opts.destination === undefined ? undefined : await readConnectorFile(opts.destination);
  if (opts.redis !== undefined && (opts.numProcesses !== undefined || opts.documentTimeout !== undefined))
    throw new UserError('run: --num-processes and --document-timeout apply to in-process runs; give them to each `quarry worker` instead');
  if (opts.redis === undefined && opts.queue !== undefined) throw new UserError('run: --queue needs --redis');
  const engine = defaultEngine();
  const plan = engine.build(body);
  // Warnings and failures read as `quarry partition` prints them, above the progress bar once it is drawn.
  let above: { log(line: string): void } | undefined;
  const logger = cliLogger({ quiet: opts.quiet ?? false, write: (line) => (above ? above.log(line) : void process.stderr.write(line)) });
  const ac = new AbortController();
  // One state file per workflow, source and destination. Local runs keep it beside the outputs.
  const from = input ?? `search_index:${describeIndex(sourceFile!)}`;
  const keyText = destinationFile ? `${plan.name}\0${from}\0search_index:${describeIndex(destinationFile)}` : `${plan.name}\0${from}`;
  const key = createHash('sha256').update(keyText).digest('hex').slice(0, 16);
  const stateDir = output !== undefined ? join(output, '.quarry') : (process.env[STATE_DIR_ENV] ?? join(homedir(), '.quarry', 'state'));
  const state = await FileStateStore.open(join(stateDir, `state-${key}.jsonl`));
  const onSigint = (): void => ac.abort();
  process.once('SIGINT', onSigint);
  // Documents are partitioned in child processes: a file that crashes or hangs its parser fails alone.
  const pool = opts.redis === undefined ? new PartitionPool(partitionPoolOptions(opts)) : undefined;
  let summary: JobSummary;
  try {
    let job: Job;
    if (opts.redis !== undefined) {
      // Workers create their own connectors, so they travel as type and config.
      const source: ConnectorSpec = sourceFile ? { type: sourceFile.type, config: sourceFile.config } : { type: 'local', config: { path: input } };
      const destination: ConnectorSpec = destinationFile
        ? { type: destinationFile.type, config: destinationFile.config }
        : { type: 'local', config: { path: output } };
      job = runDistributed(engine, plan, {
        redis: opts.redis,
        ...(opts.queue ? { queue: opts.queue } : {}),
        source,
        destination,
        ...(opts.reprocessAll ? { reprocessAll: true } : {}),
        ...distributedSecret(),
        state,
        signal: ac.signal,
        logger,
      });
    } else {
      const connectorCtx = { logger, signal: ac.signal };
      const source: SourceInput = sourceFile ? await createSearchIndexSource(sourceFile.config, connectorCtx) : { type: 'local', config: { path: input } };
      const destination: DestinationInput = destinationFile
        ? await createSearchIndexDestination(destinationFile.config, connectorCtx)
        : { type: 'local', config: { path: output } };
      job = engine.run(plan, {
        source,
        destination,
        concurrency: Math.max(opts.concurrency, documentsInFlight(opts)),
        ...(opts.reprocessAll ? { reprocessAll: true } : {}),
        state,
        signal: ac.signal,
        logger,
        services: new Services().set(PARTITION_POOL_SERVICE, pool),
      });
    }
    if (opts.progress) above = attachProgress(job);
    summary = await job.done;
  } finally {
    process.off('SIGINT', onSigint);
    await pool?.close();
  }
  const target = output ?? `search_index ${describeIndex(destinationFile!)}`;
  process.stdout.write(opts.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary, target, { warnings: !opts.quiet }));
  process.exitCode = summary.status === 'COMPLETED' && summary.counts.failed === 0 ? 0 : 1;
}

/** The human-readable end-of-run summary; `warnings: false` leaves documents' warnings out. */
export function formatSummary(s: JobSummary, output: string, show: { warnings: boolean } = { warnings: true }): string {
  const c = s.counts;
  const lines = [
    `${s.status}: ${c.written} written, ${c.failed} failed, ${c.skipped} unchanged, ${c.stopped} stopped of ${c.total} documents; ${c.elements} elements in ${(s.duration_ms / 1000).toFixed(1)} s -> ${output}`,
  ];
  for (const n of s.nodes) lines.push(`  ${n.node} (${n.type}/${n.subtype}): ${n.success} ok, ${n.failure} failed, ${(n.ms / 1000).toFixed(2)} s`);
  for (const f of s.failures) lines.push(`  FAILED ${f.record_id} at ${f.node}: ${f.code}: ${f.message}`);
  for (const w of show.warnings ? (s.warnings ?? []) : []) lines.push(`  WARNING ${w.record_id} at ${w.node}: ${w.message}`);
  if (s.error) lines.push(`  job error: ${s.error.code}: ${s.error.message}`);
  return `${lines.join('\n')}\n`;
}
