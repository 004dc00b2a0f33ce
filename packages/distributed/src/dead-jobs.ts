import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorMessage, silentLogger, type Logger } from '@quarry/core';
import { DEFAULT_QUEUE, KEY_PREFIX, queueKeys, type JobEntry, type QueueKeys } from './keys.js';
import { connectRedis, redisOptions, type RedisTarget } from './redis.js';
import { openJobSpec, type StoredJobSpec } from './sealed-connectors.js';
import { hasValidMac } from './task-mac.js';
import type { TaskData, TaskResult } from './task.js';

/** The error code of a task a worker did not run because its job's coordinator is gone. */
export const COORDINATOR_LOST = 'COORDINATOR_LOST';

/**
 * What became of the tasks of a job whose coordinator died (its heartbeat expired): the outcomes
 * workers reported, the tasks nobody ran, and those whose outcome Redis no longer holds.
 */
export interface DeadJobReport {
  job_id: string;
  workflow_id: string;
  started_at: string;
  /** Tasks the dead coordinator queued. */
  tasks: number;
  written: number;
  failed: number;
  stopped: number;
  /** Taken by a worker after the coordinator died, and not run (`COORDINATOR_LOST`). */
  orphaned: number;
  /** Still waiting in the queue: removed now, never run. */
  never_run: number;
  /** Running on a worker now: left to finish; not counted here. */
  running: number;
  /** No longer in Redis (outcomes are kept an hour, failures a day), or never sent. */
  lost: number;
  /** Found under the job's task ids without the coordinator's signature (a job with a secret): not counted. */
  unsigned: number;
  /** Record ids of the tasks that failed, orphaned or never ran: what a rerun has to write. */
  not_written: string[];
}

/** Options of {@link accountDeadJobs}. */
export interface DeadJobsOptions {
  redis: RedisTarget;
  /** Queue of the jobs (default `quarry`). */
  queue?: string;
  /** Only jobs of this workflow id (default: every dead job of the queue). */
  workflowId?: string;
  /** The coordinators' shared secret: tasks of a job with one are counted only when signed. */
  secret?: string;
  logger?: Logger;
}

/**
 * Finds the jobs of a queue whose coordinator died (their heartbeat expired before they ended),
 * reports what became of each task, removes the tasks still waiting (nobody would count them) and
 * the job's records. A job whose coordinator is alive is left alone. `runDistributed` does this for
 * its workflow before it queues anything; this is the same, on its own.
 *
 * @example
 * ```ts
 * for (const r of await accountDeadJobs({ redis: 'redis://127.0.0.1:6379' })) console.log(r.job_id, r.written, r.never_run);
 * ```
 */
export async function accountDeadJobs(options: DeadJobsOptions): Promise<DeadJobReport[]> {
  const connection = redisOptions(options.redis);
  const redis = await connectRedis(connection);
  const keys = queueKeys(options.queue ?? DEFAULT_QUEUE);
  const queue = new Queue<TaskData, TaskResult>(keys.queue, { connection, prefix: KEY_PREFIX });
  try {
    // A BullMQ queue closed before its connection is ready rejects a promise nobody awaits (its
    // version check); an empty queue would otherwise be closed that early.
    await queue.waitUntilReady();
    return await accountDead(redis, queue, keys, options);
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** {@link accountDeadJobs} on open connections. */
export async function accountDead(
  redis: Redis,
  queue: Queue<TaskData, TaskResult>,
  keys: QueueKeys,
  options: { workflowId?: string | undefined; secret?: string | undefined; logger?: Logger | undefined },
): Promise<DeadJobReport[]> {
  const logger = options.logger ?? silentLogger;
  const reports: DeadJobReport[] = [];
  for (const [jobId, text] of Object.entries(await redis.hgetall(keys.jobs))) {
    let entry: JobEntry;
    try {
      entry = JSON.parse(text) as JobEntry;
    } catch {
      continue;
    }
    if (options.workflowId !== undefined && entry.workflow_id !== options.workflowId) continue;
    if ((await redis.exists(keys.alive(jobId))) === 1) continue;
    const report = await accountJob(redis, queue, keys, jobId, entry, options.secret, logger);
    await redis.del(keys.spec(jobId), keys.cancelled(jobId), keys.queued(jobId));
    await redis.hdel(keys.jobs, jobId);
    logger.warn('a job lost its coordinator: its tasks are accounted for', { ...report, not_written: report.not_written.length });
    reports.push(report);
  }
  return reports;
}

async function accountJob(
  redis: Redis,
  queue: Queue<TaskData, TaskResult>,
  keys: QueueKeys,
  jobId: string,
  entry: JobEntry,
  secret: string | undefined,
  logger: Logger,
): Promise<DeadJobReport> {
  const tasks = Number((await redis.get(keys.queued(jobId))) ?? 0);
  const r: DeadJobReport = {
    job_id: jobId,
    workflow_id: entry.workflow_id,
    started_at: entry.started_at,
    tasks,
    written: 0,
    failed: 0,
    stopped: 0,
    orphaned: 0,
    never_run: 0,
    running: 0,
    lost: 0,
    unsigned: 0,
    not_written: [],
  };
  const taskKey = await jobTaskKey(redis, keys, jobId, secret, logger);
  for (let seq = 0; seq < tasks; seq++) {
    const task = await queue.getJob(`${jobId}.${seq}`);
    if (!task) {
      r.lost++;
      continue;
    }
    if (taskKey && !hasValidMac(taskKey, task.data)) {
      r.unsigned++;
      continue;
    }
    const recordId = task.data.record.record_id;
    const state = await task.getState();
    if (state === 'completed') {
      const result = task.returnvalue as TaskResult | null;
      if (result?.outcome === 'written') r.written++;
      else if (result?.outcome === 'stopped') r.stopped++;
      else if (result?.outcome === 'failed' && result.failure.code === COORDINATOR_LOST) {
        r.orphaned++;
        r.not_written.push(recordId);
      } else {
        r.failed++;
        r.not_written.push(recordId);
      }
    } else if (state === 'failed') {
      r.failed++;
      r.not_written.push(recordId);
    } else if (state === 'active') {
      r.running++;
    } else {
      // Waiting, delayed or prioritized: nobody will count it, so nobody runs it.
      await task.remove().catch((e: unknown) => logger.warn('cannot remove a task of a dead job', { task: task.id, error: errorMessage(e) }));
      r.never_run++;
      r.not_written.push(recordId);
    }
  }
  return r;
}

/** The key a job's tasks are signed with, when the job has a secret and it is given. */
async function jobTaskKey(redis: Redis, keys: QueueKeys, jobId: string, secret: string | undefined, logger: Logger): Promise<Buffer | undefined> {
  const text = await redis.get(keys.spec(jobId));
  if (text === null) return undefined;
  try {
    return (await openJobSpec(JSON.parse(text) as StoredJobSpec, secret, jobId)).taskKey;
  } catch (e) {
    // A job sealed with a secret this coordinator does not have: its tasks are counted as found.
    logger.warn('cannot check the signatures of a dead job', { job_id: jobId, error: errorMessage(e) });
    return undefined;
  }
}
