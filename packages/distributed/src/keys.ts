/** Default BullMQ queue name of distributed runs. */
export const DEFAULT_QUEUE = 'quarry';
/** Key prefix of every Redis key quarry writes (BullMQ's own keys included). */
export const KEY_PREFIX = 'quarry';
/** How long job and workflow records live in Redis when a coordinator dies without cleaning up. */
export const RECORD_TTL_S = 7 * 24 * 3600;

/** The Redis keys and channel of one queue. */
export interface QueueKeys {
  queue: string;
  /** The job's spec: workflow reference, connectors, timeouts. Deleted when the job ends. */
  spec(jobId: string): string;
  /** Present once the job was cancelled. */
  cancelled(jobId: string): string;
  /** The coordinator's heartbeat: a key it keeps alive (short TTL) while it runs the job. */
  alive(jobId: string): string;
  /** How many task ids the job has used (`<job>.0` .. `<job>.<n-1>`), set before each batch is queued. */
  queued(jobId: string): string;
  /** Hash of the queue's running jobs: job id to `{ workflow_id, started_at }`; an entry leaves when its job ends. */
  jobs: string;
  /** A workflow version, shared by every job that runs it. */
  workflow(workflowId: string, version: string): string;
  /** Pub/sub channel of {@link ControlMessage}s. */
  control: string;
}

/** Keys for a queue name (BullMQ forbids ':' in queue names). */
export function queueKeys(queue: string): QueueKeys {
  const base = `${KEY_PREFIX}:${queue}:run`;
  return {
    queue,
    spec: (jobId) => `${base}:job:${jobId}:spec`,
    cancelled: (jobId) => `${base}:job:${jobId}:cancelled`,
    alive: (jobId) => `${base}:job:${jobId}:alive`,
    queued: (jobId) => `${base}:job:${jobId}:queued`,
    jobs: `${base}:jobs`,
    workflow: (id, version) => `${base}:workflow:${encodeURIComponent(id)}:${version}`,
    control: `${base}:control`,
  };
}

/** Lifetime of a coordinator's heartbeat by default; it is refreshed every third of it. */
export const HEARTBEAT_TTL_MS = 30_000;

/** A job's entry in {@link QueueKeys.jobs}. */
export interface JobEntry {
  workflow_id: string;
  started_at: string;
}

/** What a coordinator tells workers about one of its jobs. */
export interface ControlMessage {
  type: 'cancel' | 'finished';
  job_id: string;
}
