import type { BatchQueue } from '@quarry/core/concurrency';
import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  createJobShell,
  silentLogger,
  type ConnectorSpec,
  type Engine,
  type Job,
  type JobShell,
  type JobSummary,
  type Logger,
  type Plan,
  type StateStore,
} from '@quarry/core';
import { accountDead, type DeadJobReport } from './dead-jobs.js';
import { publishJob, type JobResources } from './job-setup.js';
import { DEFAULT_QUEUE, KEY_PREFIX, queueKeys, type ControlMessage, type QueueKeys } from './keys.js';
import { startReconciler } from './reconciler.js';
import { connectRedis, redisOptions, type RedisTarget } from './redis.js';
import { stopTasks } from './stop-tasks.js';
import { parseResult, TaskOutcomes } from './task-outcomes.js';
import { openTaskWindow, queueDocuments, type QueuedTask, type TaskTarget } from './task-window.js';
import type { TaskData, TaskResult } from './task.js';

/** Options of {@link runDistributed}: those of `engine.run`, with connectors named by type and config. */
export interface DistributedRunOptions {
  redis: RedisTarget;
  /** Queue the workers listen on (default `quarry`). */
  queue?: string;
  /** The source, as type and config: every worker creates its own. It must support `get`. */
  source: ConnectorSpec;
  /** Destinations, as type and config (none: documents are processed and only reported). */
  destination?: ConnectorSpec | ConnectorSpec[];
  /**
   * Tasks queued or running at once (default 256): the source is listed only this far ahead of the
   * workers, so a job of millions of documents never sits in Redis whole.
   */
  window?: number;
  /** Overrides the workflow's `reprocess_all`. With `false`, unchanged documents are not queued. */
  reprocessAll?: boolean;
  /** Where written versions are remembered (read and written by the coordinator only). */
  state?: StateStore;
  signal?: AbortSignal;
  logger?: Logger;
  /** The workflow's id in task records (default: the plan's name). */
  workflowId?: string;
  /** Tries per task, first included (default 3): failed writes and workers that could not run it. */
  attempts?: number;
  /** First retry delay, doubled on each retry (default 1 s). */
  backoffMs?: number;
  /** Report a node call running longer than this (default 60 s). */
  stallWarningMs?: number;
  /** Fail a node call running longer than this (default 10 min; 0 disables). */
  nodeTimeoutMs?: number;
  /** After a cancel, how long running tasks get to stop before they are counted stopped (default 30 s). */
  cancelGraceMs?: number;
  /** How often tasks are looked up whose outcome event was not seen (default 5 s). */
  reconcileMs?: number;
  /**
   * Secret shared with the workers: the job's connector configs (credentials included) are kept in
   * Redis encrypted with it. Without one they are kept in clear while the job runs (with a warning
   * when they hold credentials).
   */
  secret?: string;
  /**
   * Lifetime of this coordinator's heartbeat in Redis (default 30 s), refreshed every third of it.
   * Workers do not run tasks of a job whose heartbeat expired (`COORDINATOR_LOST`).
   */
  heartbeatTtlMs?: number;
  /**
   * Called with the report of each earlier job of this workflow whose coordinator died, accounted
   * for (and cleaned up) before this job queues anything. Each is also logged as a warning.
   */
  onDeadJob?: (report: DeadJobReport) => void;
}

/**
 * Runs a plan on workers started with {@link startWorker} (on this machine or others) instead of in
 * this process: lists the source here, queues one task per document on BullMQ (job id, workflow id
 * and version, the document's record), and turns the workers' results into the same events,
 * counts, failures and status as `engine.run`. Cancelling stops the listing, removes queued
 * tasks, tells workers to stop the running ones, and ends STOPPED.
 *
 * @example
 * ```ts
 * const job = runDistributed(engine, engine.build(workflow), {
 *   redis: 'redis://127.0.0.1:6379',
 *   source: { type: 'local', config: { path: '/shared/docs' } },
 *   destination: { type: 'local', config: { path: '/shared/out' } },
 * });
 * console.log((await job.done).counts);
 * ```
 */
export function runDistributed(engine: Engine, plan: Plan, options: DistributedRunOptions): Job {
  const shell = createJobShell(plan.nodes, options.signal);
  return shell.handle(execute(engine, plan, options, shell));
}

/** What one run opened: closed in {@link teardown}, whatever step failed. */
interface RunResources extends JobResources {
  redis?: Redis;
  queue?: Queue<TaskData, TaskResult>;
  queueEvents?: QueueEvents;
  tasks?: BatchQueue<QueuedTask>;
  stopReconciler?: () => void;
}

/** The job from the first Redis call to its summary: publish, queue the documents, count, clean up. */
async function execute(engine: Engine, plan: Plan, options: DistributedRunOptions, shell: JobShell): Promise<JobSummary> {
  await new Promise<void>((r) => setImmediate(r));
  const logger = options.logger ?? silentLogger;
  const { id, signal } = shell;
  const keys = queueKeys(options.queue ?? DEFAULT_QUEUE);
  const res: RunResources = {};
  const outcomes = new TaskOutcomes(shell, options.state, logger, () => res.tasks?.release());
  const cancelGraceMs = options.cancelGraceMs ?? 30_000;
  try {
    const connection = redisOptions(options.redis);
    const redis = await connectRedis(connection);
    res.redis = redis;
    const job = await publishJob(engine, plan, options, { shell, logger, redis, keys, resources: res });
    const { queue, queueEvents } = await openQueue(connection, keys, res);
    // Earlier jobs of this workflow whose coordinator died: counted and cleaned up before this one queues.
    for (const report of await accountDead(redis, queue, keys, { workflowId: job.workflowId, secret: options.secret, logger })) options.onDeadJob?.(report);
    listenForOutcomes(queueEvents, outcomes, logger);
    res.stopReconciler = startReconciler(queue, outcomes, keys, options.reconcileMs ?? 5000, logger);
    if ((await queue.getWorkersCount()) === 0) logger.warn('no worker is connected to the queue; tasks wait until one starts', { queue: keys.queue });

    const { source } = job;
    const total = source.count ? await source.count(signal).catch(() => undefined) : undefined;
    shell.announce(total);
    const target: TaskTarget = { redis, queue, keys };
    res.tasks = openTaskWindow(target, id, outcomes, Math.max(1, options.window ?? 256));
    await queueDocuments(
      res.tasks,
      { shell, job, outcomes },
      {
        reprocessAll: options.reprocessAll ?? plan.reprocessAll,
        state: options.state,
        taskOptions: taskOptions(options),
        logger,
      },
    );
    if (signal.aborted) await stopTasks(target, id, outcomes, res.tasks, cancelGraceMs);
  } catch (e) {
    if (signal.aborted && res.redis && res.queue)
      await stopTasks({ redis: res.redis, queue: res.queue, keys }, id, outcomes, res.tasks, cancelGraceMs).catch(() => undefined);
    else shell.fail(e, logger);
    shell.announce();
  } finally {
    await teardown(res, outcomes, keys, id);
  }
  return shell.finish();
}

/** BullMQ's options of each task: attempts with exponential backoff, and how long finished tasks stay. */
function taskOptions(options: DistributedRunOptions): JobsOptions {
  return {
    attempts: Math.max(1, options.attempts ?? 3),
    backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
    removeOnComplete: { age: 3600 },
    removeOnFail: { age: 24 * 3600 },
  };
}

/** The job's BullMQ queue and its events, ready (kept in `res` as they open). */
async function openQueue(
  connection: ReturnType<typeof redisOptions>,
  keys: QueueKeys,
  res: RunResources,
): Promise<{ queue: Queue<TaskData, TaskResult>; queueEvents: QueueEvents }> {
  const queue = new Queue<TaskData, TaskResult>(keys.queue, { connection, prefix: KEY_PREFIX });
  res.queue = queue;
  const queueEvents = new QueueEvents(keys.queue, { connection, prefix: KEY_PREFIX });
  res.queueEvents = queueEvents;
  await Promise.all([queue.waitUntilReady(), queueEvents.waitUntilReady()]);
  return { queue, queueEvents };
}

/** Counts each task's outcome as its worker reports it (missed events are looked up by the reconciler). */
function listenForOutcomes(queueEvents: QueueEvents, outcomes: TaskOutcomes, logger: Logger): void {
  queueEvents.on('completed', ({ jobId, returnvalue }) => {
    const result = parseResult(returnvalue);
    if (result) void outcomes.settle(jobId, result);
  });
  queueEvents.on('stalled', ({ jobId }) => {
    const task = outcomes.outstanding.get(jobId);
    if (task) logger.warn('task taken over from a worker that stopped answering', { task: jobId, record_id: task.record.record_id });
  });
  queueEvents.on('failed', ({ jobId, failedReason }) => {
    const r = outcomes.failed(jobId, 'TASK_FAILED', failedReason);
    if (r) void outcomes.settle(jobId, r);
  });
}

/** Stops the timers, waits for the counts, tells workers the job is over, removes its keys and closes what it opened. */
async function teardown(res: RunResources, outcomes: TaskOutcomes, keys: QueueKeys, jobId: string): Promise<void> {
  res.stopReconciler?.();
  res.stopHeartbeat?.();
  res.tasks?.discard();
  // A cancelled job can end with outcomes still being counted; none is left out.
  await outcomes.settled();
  const { redis } = res;
  if (redis) {
    const done: ControlMessage = { type: 'finished', job_id: jobId };
    await redis.publish(keys.control, JSON.stringify(done)).catch(() => undefined);
    await redis.del(keys.spec(jobId), keys.cancelled(jobId), keys.alive(jobId), keys.queued(jobId)).catch(() => undefined);
    await redis.hdel(keys.jobs, jobId).catch(() => undefined);
  }
  await Promise.allSettled([res.queueEvents?.close(), res.queue?.close(), res.source?.close?.()]);
  redis?.disconnect();
}
