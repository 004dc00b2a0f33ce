import { errorMessage, type JobShell, type Logger, type SourceRecord, type StateStore } from '@quarry/core';
import type { TaskResult } from './task.js';

/** A task the coordinator listed and has not counted yet. */
export interface Outstanding {
  record: SourceRecord;
  /** Listed, then (once its batch is in Redis) queued. */
  queuedAt: number;
  /** In Redis: until then the task cannot be looked up (see `reconcile`). */
  sent?: boolean;
  /** Set once its outcome is being counted: a second event for the task is ignored. */
  settling?: boolean;
}

/** A worker's result as BullMQ hands it over (a JSON string or an object), or undefined when it is none. */
export function parseResult(value: unknown): TaskResult | undefined {
  try {
    const r = (typeof value === 'string' ? JSON.parse(value) : value) as TaskResult | null;
    return r && typeof r === 'object' && typeof r.outcome === 'string' ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tasks of a distributed job that are listed but not counted yet, and the counting of their
 * outcomes into the job's events, counts and node stats; each task is counted once.
 */
export class TaskOutcomes {
  /** By task id. */
  readonly outstanding = new Map<string, Outstanding>();
  /** Outcomes being counted: the job waits for them before it ends. */
  private readonly counting = new Set<Promise<void>>();
  private readonly statsByNode: ReadonlyMap<string, JobShell['stats'][number]>;

  constructor(
    private readonly shell: JobShell,
    private readonly state: StateStore | undefined,
    private readonly logger: Logger,
    /** Called as each task leaves (the window's room). */
    private readonly onCounted: () => void,
  ) {
    this.statsByNode = new Map(shell.stats.map((s) => [s.node, s]));
  }

  /**
   * Turns one task's outcome into the job's counts and events. The task stays outstanding until it
   * is counted: the job must not end while a count is still pending (recording a written version
   * in the state store is awaited before the count).
   */
  async settle(taskId: string, result: TaskResult): Promise<void> {
    const task = this.outstanding.get(taskId);
    if (!task || task.settling) return;
    task.settling = true;
    const counted = this.count(task, result).finally(() => {
      this.outstanding.delete(taskId);
      this.counting.delete(counted);
      this.onCounted();
    });
    this.counting.add(counted);
    await counted;
  }

  /** A task that ended without a worker's result, as a failure of the `queue` node (undefined when it is not outstanding). */
  failed(taskId: string, code: string, message: string): TaskResult | undefined {
    const task = this.outstanding.get(taskId);
    if (!task) return undefined;
    return {
      outcome: 'failed',
      failure: { record_id: task.record.record_id, filename: task.record.filename, node: 'queue', code, message },
      nodes: [],
      worker: '',
    };
  }

  /** Resolves once every outcome being counted is counted. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.counting]);
  }

  private async count(task: Outstanding, result: TaskResult): Promise<void> {
    const { shell, logger } = this;
    const { record } = task;
    for (const t of result.nodes) {
      const s = this.statsByNode.get(t.node);
      if (!s) continue;
      s.success++;
      s.ms += t.ms;
      shell.emit({ type: 'node_finished', record_id: record.record_id, node: t.node, ms: t.ms, elements: t.elements });
    }
    for (const w of result.warnings ?? []) shell.emit({ type: 'document_warning', ...w });
    if (result.outcome === 'written') {
      try {
        if (this.state && record.version !== undefined) await this.state.set(record.record_id, record.version);
      } catch (e) {
        logger.warn('state store: cannot record a written version', { record_id: record.record_id, error: errorMessage(e) });
      }
      shell.endDocument(
        { type: 'document_written', record_id: record.record_id, filename: record.filename, elements: result.elements, ms: Date.now() - task.queuedAt },
        logger,
      );
    } else if (result.outcome === 'failed') {
      const s = this.statsByNode.get(result.failure.node);
      if (s) s.failure++;
      shell.endDocument({ type: 'document_failed', ...result.failure }, logger);
    } else {
      shell.endDocument({ type: 'document_stopped', record_id: record.record_id, filename: record.filename }, logger);
    }
  }
}
