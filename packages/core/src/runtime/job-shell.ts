import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Subject } from 'rxjs';
import { errorMessage, isQuarryError } from '../errors.js';
import type { Logger } from '../plugin/types.js';
import type { DocumentFailure, DocumentWarning, Job, JobEvent, JobSummary, NodeStats } from './events.js';
import { countDocumentEnd, summarizeJob, type DocumentEnd } from './job-summary.js';

/**
 * What every job runner (in-process or distributed) keeps the same way: its id, its cancel signal
 * (tied to the caller's), its events, the counters the summary is made of, and the `Job` handle.
 */
export interface JobShell {
  readonly id: string;
  /** Aborted by `cancel()` or by the caller's signal. */
  readonly signal: AbortSignal;
  readonly stats: NodeStats[];
  readonly counts: JobSummary['counts'];
  readonly failures: DocumentFailure[];
  emit(e: JobEvent): void;
  /** Counts how a document ended ({@link countDocumentEnd}), emits it, and logs a failure. */
  endDocument(end: DocumentEnd, logger: Logger): void;
  /** Emits `job_started` (once). */
  announce(total?: number): void;
  /** Records, logs and announces that the job itself could not run. */
  fail(e: unknown, logger: Logger): void;
  /** Builds the summary, emits `job_finished` and completes the events. */
  finish(): JobSummary;
  /** The caller's handle on the job that resolves with `done`. */
  handle(done: Promise<JobSummary>): Job;
}

/** Starts the shell of a job over these nodes; `external` cancels it too. */
export function createJobShell(nodes: ReadonlyArray<{ name: string; type: string; subtype: string }>, external?: AbortSignal): JobShell {
  const id = randomUUID();
  const controller = new AbortController();
  if (external) {
    if (external.aborted) controller.abort(external.reason);
    else external.addEventListener('abort', () => controller.abort(external.reason), { once: true });
  }
  // rxjs is CommonJS under Node (its `node` export condition), so `require` gives the instance the
  // runtime's `import` gets, loaded when the first job starts rather than with the package.
  const rxjs = createRequire(import.meta.url)('rxjs') as typeof import('rxjs');
  const events: Subject<JobEvent> = new rxjs.Subject<JobEvent>();
  const warnings: DocumentWarning[] = [];
  const emit = (e: JobEvent): void => {
    if (e.type === 'document_warning') {
      const { type: _type, ...warning } = e;
      warnings.push(warning);
    }
    events.next(e);
  };
  const startedAt = new Date();
  const stats: NodeStats[] = nodes.map((n) => ({ node: n.name, type: n.type, subtype: n.subtype, success: 0, failure: 0, ms: 0 }));
  const failures: DocumentFailure[] = [];
  const counts = { total: 0, written: 0, failed: 0, skipped: 0, stopped: 0, elements: 0 };
  let error: JobSummary['error'];
  let announced = false;
  const announce = (total?: number): void => {
    if (announced) return;
    announced = true;
    emit({ type: 'job_started', job_id: id, at: startedAt.toISOString(), ...(total === undefined ? {} : { total }) });
  };
  return {
    id,
    signal: controller.signal,
    stats,
    counts,
    failures,
    emit,
    endDocument(end, logger) {
      countDocumentEnd({ counts, failures }, end);
      emit(end);
      if (end.type === 'document_failed') {
        const { type: _type, ...failure } = end;
        logger.warn('document failed', failure);
      }
    },
    announce,
    fail(e, logger) {
      error = { code: isQuarryError(e) ? e.code : 'JOB_FAILED', message: errorMessage(e) };
      logger.error('job failed', error);
      announce();
    },
    finish() {
      const summary = summarizeJob({
        job_id: id,
        startedAt,
        stopped: controller.signal.aborted,
        counts,
        failures,
        warnings,
        nodes: stats,
        ...(error ? { error } : {}),
      });
      emit({ type: 'job_finished', summary });
      events.complete();
      return summary;
    },
    handle: (done) => ({ id, events$: events.asObservable(), done, cancel: () => controller.abort(new Error('job cancelled')) }),
  };
}
