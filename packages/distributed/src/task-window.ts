import { BatchQueue } from '@quarry/core/concurrency';
import { isUnchanged, type JobShell, type Logger, type StateStore } from '@quarry/core';
import type { JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { PublishedJob } from './job-setup.js';
import { RECORD_TTL_S, type QueueKeys } from './keys.js';
import { taskMac } from './task-mac.js';
import type { TaskOutcomes } from './task-outcomes.js';
import type { TaskData, TaskResult } from './task.js';

/**
 * Tasks sent to Redis in one round trip (`Queue.addBulk`: a MULTI of one add script per task). One
 * by one, each costs a round trip, a socket write and a Redis wake-up, on a machine the coordinator
 * shares with workers.
 */
const ENQUEUE_BATCH = 32;
/** Longest a listed task waits for its batch to fill (the first documents of a slow listing go at once). */
const ENQUEUE_DELAY_MS = 5;

/** One task as `Queue.addBulk` takes it. */
export interface QueuedTask {
  name: string;
  data: TaskData;
  opts: JobsOptions;
}

/** Where a job's tasks go: its Redis, its BullMQ queue and their keys. */
export interface TaskTarget {
  redis: Redis;
  queue: Queue<TaskData, TaskResult>;
  keys: QueueKeys;
}

/**
 * The window: listed tasks batched into Redis, one batch after another, each held until its
 * outcome is counted (the caller releases it then); the listing waits while `window` are held. A
 * failed send fails the job: the next push, wait for room or idle throws it.
 */
export function openTaskWindow(target: TaskTarget, jobId: string, outcomes: TaskOutcomes, window: number): BatchQueue<QueuedTask> {
  const { redis, queue, keys } = target;
  const send = async (batch: QueuedTask[]): Promise<void> => {
    // The task ids used so far, before the tasks exist: whoever accounts for this job if it dies looks them all up.
    const last = batch.reduce((n, t) => Math.max(n, Number((t.opts.jobId ?? '').slice(jobId.length + 1))), -1);
    await redis.set(keys.queued(jobId), String(last + 1), 'EX', RECORD_TTL_S);
    await queue.addBulk(batch);
    const now = Date.now();
    for (const t of batch) {
      const task = outcomes.outstanding.get(t.opts.jobId ?? '');
      if (task) Object.assign(task, { sent: true, queuedAt: now });
    }
  };
  return new BatchQueue<QueuedTask>({ maxItems: ENQUEUE_BATCH, flushMs: ENQUEUE_DELAY_MS, capacity: window, release: 'manual' }, { run: send });
}

/** How {@link queueDocuments} lists and queues. */
export interface ListingOptions {
  /** With `false`, a document whose version the state store holds is skipped. */
  reprocessAll: boolean;
  state: StateStore | undefined;
  /** BullMQ's options of each task (attempts, backoff, retention). */
  taskOptions: JobsOptions;
  logger: Logger;
}

/**
 * Lists the job's source and queues one task per document through the window (skipping unchanged ones),
 * then waits until every task is counted; stops listing when the job is cancelled.
 */
export async function queueDocuments(
  tasks: BatchQueue<QueuedTask>,
  ctx: { shell: JobShell; job: PublishedJob; outcomes: TaskOutcomes },
  options: ListingOptions,
): Promise<void> {
  const { shell, job, outcomes } = ctx;
  const { id, signal, counts, emit } = shell;
  let seq = 0;
  for await (const doc of job.source.list(signal)) {
    if (signal.aborted) break;
    counts.total++;
    if (!options.reprocessAll && (await isUnchanged(options.state, doc))) {
      shell.endDocument({ type: 'document_skipped', record_id: doc.record_id, filename: doc.filename, version: doc.version }, options.logger);
      continue;
    }
    if (!(await hasRoom(tasks, signal))) break;
    const { read: _read, localPath: _localPath, ...rec } = doc;
    const taskId = `${id}.${seq++}`;
    outcomes.outstanding.set(taskId, { record: rec, queuedAt: Date.now() });
    emit({ type: 'document_started', record_id: doc.record_id, filename: doc.filename });
    const data: TaskData = { job_id: id, workflow_id: job.workflowId, workflow_version: job.version, record: rec };
    if (job.taskKey) data.mac = taskMac(job.taskKey, data);
    tasks.push({ name: 'document', data, opts: { ...options.taskOptions, jobId: taskId } });
  }
  tasks.end();
  await tasks.idle(signal).catch((e: unknown) => {
    if (!signal.aborted) throw e;
  });
}

/** Waits until the window has room; false when the job is cancelled meanwhile. */
async function hasRoom(tasks: BatchQueue<QueuedTask>, signal: AbortSignal): Promise<boolean> {
  try {
    await tasks.room(signal);
    return true;
  } catch (e) {
    if (signal.aborted) return false;
    throw e;
  }
}
