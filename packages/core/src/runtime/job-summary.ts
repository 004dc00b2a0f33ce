import type { DocumentFailure, JobStatus, JobSummary, NodeStats } from './events.js';

/** What a runner tallied over a job, to be turned into its {@link JobSummary}. */
export interface JobTally {
  job_id: string;
  startedAt: Date;
  /** The job was cancelled. */
  stopped: boolean;
  counts: JobSummary['counts'];
  failures: DocumentFailure[];
  nodes: NodeStats[];
  error?: JobSummary['error'];
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
    nodes: t.nodes,
    ...(t.error ? { error: t.error } : {}),
  };
}
