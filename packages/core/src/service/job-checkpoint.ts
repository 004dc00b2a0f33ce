import type { JobEvent } from '../runtime/events.js';
import type { Logger } from '../plugin/types.js';
import { errorMessage } from '../errors.js';
import type { NodeStatsTracker } from './node-stats.js';
import type { JobOutputFile, JobRecord } from './records.js';
import { scrubSecrets } from './secrets.js';
import type { Store } from './store.js';

/** What a checkpoint stores besides the record it was given. */
export interface CheckpointSources {
  tracker: NodeStatsTracker;
  /** The outputs the job kept so far (filled as files are written). */
  outputs: readonly JobOutputFile[];
  secrets: readonly string[];
}

/**
 * Stores a running job's progress (node statistics, kept outputs, failed files) as documents end,
 * at most once per `intervalMs`, so that a job a crash or kill -9 interrupts still shows what it
 * finished when the service starts again. Writes are chained: the job's final record, stored after
 * {@link JobCheckpoint.stop}, is never overwritten by a late checkpoint.
 */
export class JobCheckpoint {
  private readonly failed: JobRecord['failed_files'] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly record: JobRecord,
    private readonly sources: CheckpointSources,
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  /** Feeds one job event: a document that ended schedules a checkpoint. */
  observe(e: JobEvent): void {
    if (e.type === 'document_failed') this.failed.push({ document: e.record_id, error: scrubSecrets(`${e.code}: ${e.message}`, this.sources.secrets) });
    if (e.type !== 'document_written' && e.type !== 'document_failed') return;
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.chain = this.chain.then(() => this.save());
    }, this.intervalMs);
  }

  /** No more checkpoints; resolves once the one being written (if any) is stored. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.chain;
  }

  private async save(): Promise<void> {
    if (this.stopped) return;
    const snapshot: JobRecord = {
      ...this.record,
      node_stats: this.sources.tracker.stats(),
      outputs: [...this.sources.outputs],
      failed_files: [...this.failed],
    };
    try {
      await this.store.put('jobs', snapshot);
    } catch (e) {
      // A full disk, say: the job goes on; its final record is written when it ends.
      this.logger.warn('could not store the progress of a job', { job_id: this.record.id, error: errorMessage(e) });
    }
  }
}
