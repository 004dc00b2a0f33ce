import type { DocumentFailure, DocumentWarning, JobEvent, JobStatus, JobSummary, NodeStats } from './events.js';

/** What a runner tallied over a job, to be turned into its {@link JobSummary}. */
export interface JobTally {
  job_id: string;
  startedAt: Date;
  /** The job was cancelled. */
  stopped: boolean;
  counts: JobSummary['counts'];
  failures: DocumentFailure[];
  warnings?: DocumentWarning[];
  nodes: NodeStats[];
  error?: JobSummary['error'];
}

/** How one document ended, as the event that reports it. */
export type DocumentEnd = Extract<JobEvent, { type: 'document_skipped' | 'document_written' | 'document_failed' | 'document_stopped' }>;

/**
 * Adds how one document ended to a job's counts (and a failure to its failures): the one counting
 * rule of every runner, so that the counts {@link summarizeJob} decides the status from agree.
 */
export function countDocumentEnd(tally: Pick<JobTally, 'counts' | 'failures'>, end: DocumentEnd): void {
  const { counts } = tally;
  switch (end.type) {
    case 'document_skipped':
      counts.skipped++;
      break;
    case 'document_written':
      counts.written++;
      counts.elements += end.elements;
      break;
    case 'document_failed': {
      const { type: _type, ...failure } = end;
      counts.failed++;
      tally.failures.push(failure);
      break;
    }
    case 'document_stopped':
      counts.stopped++;
      break;
  }
}

/**
 * The summary of a finished job, with the one status rule every runner (in-process or distributed)
 * applies: STOPPED when cancelled; FAILED when the job could not run, or when every document it
 * offered failed; COMPLETED otherwise (some documents may have failed: see `failures`).
 */
export function summarizeJob(t: JobTally, finishedAt = new Date()): JobSummary {
  const { counts } = t;
  const status: JobStatus = t.stopped ? 'STOPPED' : t.error || (counts.failed > 0 && counts.written === 0 && counts.skipped === 0) ? 'FAILED' : 'COMPLETED';
  return {
    job_id: t.job_id,
    status,
    started_at: t.startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    duration_ms: finishedAt.getTime() - t.startedAt.getTime(),
    counts,
    failures: t.failures,
    ...(t.warnings?.length ? { warnings: t.warnings } : {}),
    nodes: t.nodes,
    ...(t.error ? { error: t.error } : {}),
  };
}
