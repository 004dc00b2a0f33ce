import type { Services } from '../plugin/services.js';
import { rm } from 'node:fs/promises';
import type { DestinationInput, Engine, SourceInput } from '../engine.js';
import { errorMessage } from '../errors.js';
import type { Plan } from '../plan/plan.js';
import type { Logger } from '../plugin/types.js';
import type { Job, JobSummary } from '../runtime/events.js';
import type { StateStore } from '../runtime/state-store.js';
import type { Clock } from './clock.js';
import { JobCheckpoint } from './job-checkpoint.js';
import { NodeStatsTracker } from './node-stats.js';
import type { JobOutputFile, JobRecord } from './records.js';
import type { NodeStat } from './schemas.js';
import { scrubSecrets, scrubValue } from './secrets.js';
import type { Store } from './store.js';

/** A job ready to run: its stored record (SCHEDULED), its plan and resolved connectors. */
export interface PreparedJob {
  record: JobRecord;
  plan: Plan;
  source: SourceInput;
  destinations: DestinationInput[];
  state?: StateStore;
  /** Secret strings of the job's connectors and nodes: scrubbed from messages and logs. */
  secrets: string[];
  /** Rows of the node statistics: the plan's nodes, then the destination. */
  statRows: Array<{ name: string; type: string; subtype: string }>;
  /** Filled by the job output destination as files are kept. */
  outputs: JobOutputFile[];
  /** Input files to delete when the job ends. */
  inputDir?: string;
}

interface Entry {
  prepared: PreparedJob;
  controller: AbortController;
  tracker: NodeStatsTracker;
  checkpoint?: JobCheckpoint;
  job?: Job;
  /** Taken off the queue: counts against maxRunning until it ends. */
  started: boolean;
  stopReason?: string;
  done: Promise<void>;
  resolve: () => void;
}

/** Dependencies of {@link JobRunner}. */
export interface JobRunnerDeps {
  engine: Engine;
  /** Services handed to every job's nodes (a partition process pool, say). */
  services?: Services;
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Jobs running at once; more wait SCHEDULED. */
  maxRunning: number;
  /** Documents in flight per job. */
  concurrency: number;
  /** How often (ms) a running job's progress is stored at most, so a crash leaves it visible (default 1000). */
  checkpointMs?: number;
  /** Called after a job's final record is stored (deletes an on-demand job's workflow). */
  onEnded(record: JobRecord): Promise<void>;
}

/** A logger that removes secrets from messages and fields before they reach `inner`. */
export function scrubbingLogger(inner: Logger, secrets: readonly string[]): Logger {
  if (secrets.length === 0) return inner;
  const wrap =
    (fn: Logger['info']): Logger['info'] =>
    (message, fields) =>
      fn(scrubSecrets(message, secrets), fields === undefined ? undefined : scrubValue(fields, secrets));
  return { debug: wrap(inner.debug.bind(inner)), info: wrap(inner.info.bind(inner)), warn: wrap(inner.warn.bind(inner)), error: wrap(inner.error.bind(inner)) };
}

/** `PT2.5S`: an ISO 8601 duration. */
export function isoDuration(ms: number): string {
  return `PT${Math.max(0, ms) / 1000}S`;
}

function endMessage(summary: JobSummary, stopReason: string | undefined): string {
  const c = summary.counts;
  const tally = `${c.written} of ${c.total} documents written, ${c.failed} failed, ${c.skipped} unchanged, ${c.stopped} stopped`;
  if (summary.status === 'STOPPED') return `${stopReason ?? 'Job cancelled.'} ${tally}`;
  if (summary.error) return `${summary.error.code}: ${summary.error.message}`;
  return summary.status === 'FAILED' ? `every document failed: ${tally}` : tally;
}

/**
 * Runs prepared jobs: at most `maxRunning` at once (the rest wait SCHEDULED, first come first
 * served), tracks per-node counts from the job events, and stores the final record.
 */
export class JobRunner {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: string[] = [];
  private running = 0;

  constructor(private readonly deps: JobRunnerDeps) {}

  /** Queues a job whose SCHEDULED record is stored. */
  submit(prepared: PreparedJob): void {
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    const entry: Entry = { prepared, controller: new AbortController(), tracker: new NodeStatsTracker(prepared.statRows), started: false, done, resolve };
    this.entries.set(prepared.record.id, entry);
    this.queue.push(prepared.record.id);
    this.pump();
  }

  /** True while the job is queued or running in this process. */
  has(jobId: string): boolean {
    return this.entries.has(jobId);
  }

  /** Live node statistics of a queued or running job. */
  liveStats(jobId: string): NodeStat[] | undefined {
    return this.entries.get(jobId)?.tracker.stats();
  }

  /** Resolves when the job has ended and its record is stored (at once when it is not here). */
  async waitFor(jobId: string): Promise<void> {
    await this.entries.get(jobId)?.done;
  }

  /** Stops a queued or running job; it ends STOPPED. Resolves when its final record is stored. */
  async cancel(jobId: string, reason = 'Job cancelled.'): Promise<boolean> {
    const entry = this.entries.get(jobId);
    if (!entry) return false;
    entry.stopReason ??= reason;
    entry.controller.abort(new Error(reason));
    const queued = this.queue.indexOf(jobId);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      await this.finish(entry, undefined);
    }
    await entry.done;
    return true;
  }

  /** Cancels every job and waits until their records are stored. */
  async close(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.cancel(id, 'Stopped: the service shut down.')));
  }

  private pump(): void {
    while (this.running < this.deps.maxRunning && this.queue.length) {
      const entry = this.entries.get(this.queue.shift()!);
      if (!entry) continue;
      this.running++;
      entry.started = true;
      void this.start(entry);
    }
  }

  private async start(entry: Entry): Promise<void> {
    const { prepared } = entry;
    const record = prepared.record;
    const logger = scrubbingLogger(this.deps.logger, prepared.secrets);
    try {
      record.status = 'IN_PROGRESS';
      record.started_at = this.deps.clock.now().toISOString();
      record.node_stats = entry.tracker.stats();
      await this.deps.store.put('jobs', record);
      logger.info('job started', { job_id: record.id, workflow_id: record.workflow_id, workspace: record.workspace, job_type: record.job_type });
      const job = this.deps.engine.run(prepared.plan, {
        source: prepared.source,
        destination: prepared.destinations,
        concurrency: this.deps.concurrency,
        signal: entry.controller.signal,
        logger,
        ...(this.deps.services ? { services: this.deps.services } : {}),
        ...(prepared.state ? { state: prepared.state } : {}),
      });
      entry.job = job;
      const checkpoint = new JobCheckpoint(
        record,
        { tracker: entry.tracker, outputs: prepared.outputs, secrets: prepared.secrets },
        this.deps.store,
        logger,
        this.deps.checkpointMs ?? 1000,
      );
      entry.checkpoint = checkpoint;
      job.events$.subscribe((e) => {
        entry.tracker.observe(e);
        checkpoint.observe(e);
      });
      await this.finish(entry, await job.done);
    } catch (e) {
      await this.finish(entry, undefined, errorMessage(e));
    }
  }

  private async finish(entry: Entry, summary: JobSummary | undefined, error?: string): Promise<void> {
    const { prepared } = entry;
    const record = prepared.record;
    const secrets = prepared.secrets;
    try {
      await entry.checkpoint?.stop();
      const now = this.deps.clock.now().toISOString();
      if (summary) {
        record.status = summary.status;
        record.message = scrubSecrets(endMessage(summary, entry.stopReason), secrets);
        record.counts = summary.counts;
        record.failed_files = summary.failures.map((f) => ({ document: f.record_id, error: scrubSecrets(`${f.code}: ${f.message}`, secrets) }));
        if (summary.warnings)
          record.warnings = summary.warnings.map((w) => ({ document: w.record_id, node: w.node, warning: scrubSecrets(w.message, secrets) }));
      } else if (entry.controller.signal.aborted) {
        record.status = 'STOPPED';
        record.message = entry.stopReason ?? 'Job cancelled.';
      } else {
        record.status = 'FAILED';
        record.message = scrubSecrets(`the job could not run: ${error ?? 'unknown error'}`, secrets);
      }
      record.finished_at = now;
      record.node_stats = entry.tracker.stats();
      record.outputs = prepared.outputs;
      // Before the final record is stored: a client that sees the job ended can rerun its workflow
      // at once, and no longer finds an on-demand job's workflow.
      await this.deps.onEnded(record);
      await this.deps.store.put('jobs', record);
      scrubbingLogger(this.deps.logger, secrets).info('job finished', {
        job_id: record.id,
        workflow_id: record.workflow_id,
        status: record.status,
        ...(record.counts ? { counts: record.counts } : {}),
      });
      if (prepared.inputDir) await rm(prepared.inputDir, { recursive: true, force: true });
    } catch (e) {
      this.deps.logger.error('could not store the end of a job', { job_id: record.id, error: scrubSecrets(errorMessage(e), secrets) });
    } finally {
      if (this.entries.get(record.id) === entry) {
        this.entries.delete(record.id);
        if (entry.started) this.running--;
      }
      entry.resolve();
      this.pump();
    }
  }
}
