import {
  quarryError,
  QuarryError,
  type DocumentWarning,
  type Engine,
  type Job,
  type JobEvent,
  type JobSummary,
  type Logger,
  type PipelineInput,
  type SourceConnector,
  type SourceDocument,
  type Services,
} from '@quarry/core';
import { ChannelSource } from './channel-source.js';
import type { JobSpec, TaskNodeTime, TaskResult } from './task.js';

/** What a worker needs to run its share of one distributed job. */
export interface WorkerJobOptions {
  engine: Engine;
  spec: JobSpec;
  workflow: PipelineInput;
  /** Documents of this job in flight at once in this worker. */
  concurrency: number;
  logger: Logger;
  services?: Services;
  /** This worker's name, reported with each result. */
  worker: string;
  /** Called once when the job's runtime in this worker has ended. */
  onEnded?: () => void;
  /** The key the job's tasks are signed with (a job with a shared secret); see `task-mac.ts`. */
  taskKey?: Buffer | undefined;
}

interface Pending {
  resolve(result: TaskResult): void;
  reject(error: Error): void;
  nodes: TaskNodeTime[];
  warnings: DocumentWarning[];
}

/**
 * One distributed job's runtime inside a worker: the plan built once, node instances and
 * destinations created once, and an in-process engine job fed with the documents of the tasks
 * this worker takes. Every task gets the same per-document semantics as an in-process run (node
 * timeouts, stall reports, operator nodes batching across the documents in flight), and its
 * outcome back from the job's events.
 */
export class WorkerJob {
  /** Re-opens task records as documents. */
  readonly source: SourceConnector & Required<Pick<SourceConnector, 'get'>>;
  /** The key the job's tasks must be signed with, when they are signed. */
  readonly taskKey: Buffer | undefined;
  private readonly channel = new ChannelSource();
  private readonly job: Job;
  private readonly pending = new Map<string, Pending[]>();
  private readonly done: Promise<void>;
  private finished = false;
  private closing = false;

  /** Builds the plan and opens the source; throws when this worker cannot run the job. */
  static async open(options: WorkerJobOptions): Promise<WorkerJob> {
    const plan = options.engine.build(options.workflow);
    const source = await options.engine.createSource(options.spec.source, { logger: options.logger, signal: new AbortController().signal });
    if (!source.get) {
      await source.close?.();
      throw quarryError(
        'SOURCE_NOT_ADDRESSABLE',
        `source "${options.spec.source.type}" cannot re-open a document from its record, so it cannot run distributed`,
        {
          details: { source: options.spec.source.type },
        },
      );
    }
    return new WorkerJob(options, plan, source as SourceConnector & Required<Pick<SourceConnector, 'get'>>);
  }

  private constructor(
    private readonly options: WorkerJobOptions,
    plan: ReturnType<Engine['build']>,
    source: SourceConnector & Required<Pick<SourceConnector, 'get'>>,
  ) {
    this.source = source;
    this.taskKey = options.taskKey;
    const { spec } = options;
    this.job = options.engine.run(plan, {
      source: this.channel,
      destination: spec.destinations,
      concurrency: options.concurrency,
      // The coordinator decides what is unchanged; every task that reaches a worker is processed.
      reprocessAll: true,
      // Every worker writes to the same destinations.
      sharedDestinations: true,
      logger: options.logger,
      stallWarningMs: spec.stall_warning_ms,
      nodeTimeoutMs: spec.node_timeout_ms,
      ...(options.services ? { services: options.services } : {}),
    });
    this.job.events$.subscribe((e) => this.onEvent(e));
    this.done = this.job.done.then((summary) => this.onDone(summary));
  }

  /** Runs one document through the plan and its destinations; resolves with the outcome. */
  process(doc: SourceDocument): Promise<TaskResult> {
    if (this.finished || this.closing) return Promise.reject(quarryError('JOB_FINISHED', `job "${this.options.spec.job_id}" has ended in this worker`));
    return new Promise<TaskResult>((resolve, reject) => {
      const list = this.pending.get(doc.record_id) ?? [];
      list.push({ resolve, reject, nodes: [], warnings: [] });
      this.pending.set(doc.record_id, list);
      this.channel.push(doc);
    });
  }

  /** Documents of this job in flight in this worker. */
  get inFlight(): number {
    let n = 0;
    for (const list of this.pending.values()) n += list.length;
    return n;
  }

  /** True once the job's runtime here is closing or closed: a new task must open it again. */
  get ended(): boolean {
    return this.finished || this.closing;
  }

  /** Stops the job here: documents in flight end `stopped`, nothing more is written. */
  cancel(): void {
    this.job.cancel();
  }

  /** Lets the documents in flight finish, then closes nodes, destinations and the source. */
  async close(): Promise<void> {
    this.closing = true;
    this.channel.end();
    await this.done;
  }

  private take(recordId: string): Pending | undefined {
    const list = this.pending.get(recordId);
    const first = list?.shift();
    if (list && list.length === 0) this.pending.delete(recordId);
    return first;
  }

  private onEvent(e: JobEvent): void {
    const worker = this.options.worker;
    switch (e.type) {
      case 'node_finished':
        this.pending.get(e.record_id)?.[0]?.nodes.push({ node: e.node, ms: e.ms, elements: e.elements });
        break;
      case 'document_warning': {
        const { type: _type, ...warning } = e;
        this.pending.get(e.record_id)?.[0]?.warnings.push(warning);
        break;
      }
      case 'document_written': {
        const p = this.take(e.record_id);
        p?.resolve({ outcome: 'written', elements: e.elements, nodes: p.nodes, worker, ...warningsOf(p) });
        break;
      }
      case 'document_failed': {
        const p = this.take(e.record_id);
        const { type: _type, ...failure } = e;
        p?.resolve({ outcome: 'failed', failure, nodes: p.nodes, worker, ...warningsOf(p) });
        break;
      }
      case 'document_stopped': {
        const p = this.take(e.record_id);
        p?.resolve({ outcome: 'stopped', nodes: p.nodes, worker, ...warningsOf(p) });
        break;
      }
      default:
        break;
    }
  }

  private async onDone(summary: JobSummary): Promise<void> {
    this.finished = true;
    this.channel.drain();
    // A job that could not start here (a destination that cannot be prepared, say) is this
    // worker's problem: the tasks are thrown back to the queue to be retried, maybe elsewhere.
    const error = summary.error ? QuarryError.from(summary.error.code, summary.error.message) : undefined;
    for (const list of this.pending.values()) {
      for (const p of list) {
        if (error) p.reject(error);
        else p.resolve({ outcome: 'stopped', nodes: p.nodes, worker: this.options.worker });
      }
    }
    this.pending.clear();
    await Promise.resolve(this.source.close?.()).catch((e: unknown) => this.options.logger.warn('closing the source failed', { error: String(e) }));
    this.options.onEnded?.();
  }
}

function warningsOf(p: Pending | undefined): { warnings?: DocumentWarning[] } {
  return p && p.warnings.length > 0 ? { warnings: p.warnings } : {};
}
