import { hostname } from 'node:os';
import { Worker, type Job as BullJob } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorMessage, isQuarryError, QuarryError, SHARED_RATE_BUDGETS_SERVICE, Services, silentLogger, type Engine, type Logger } from '@quarry/core';
import { DEFAULT_QUEUE, KEY_PREFIX, queueKeys, type ControlMessage, type QueueKeys } from './keys.js';
import { connectRedis, redisOptions, type RedisTarget } from './redis.js';
import { COORDINATOR_LOST } from './dead-jobs.js';
import { RedisRateBudgets } from './redis-rate-budgets.js';
import { openJobSpec, type StoredJobSpec } from './sealed-connectors.js';
import { hasValidMac } from './task-mac.js';
import type { JobSpec, TaskData, TaskResult, WorkflowRecord } from './task.js';
import { workflowVersion } from './workflow-version.js';
import { WorkerJob } from './worker-job.js';

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  redis: RedisTarget;
  /** Queue to take tasks from (default `quarry`). */
  queue?: string;
  /** Tasks this worker runs at once (default 4). */
  concurrency?: number;
  /**
   * A task's lock (default 30 s), renewed every half of it while the task runs. A worker that dies
   * stops renewing, and after this long its task is handed to another worker.
   */
  lockDurationMs?: number;
  /** How often this worker looks for tasks of dead workers (default 30 s). */
  stalledIntervalMs?: number;
  /** Times a task may be recovered from a dead worker before it fails (default 2). */
  maxStalledCount?: number;
  /** A job's nodes and destinations are closed after this long without a task of it (default 60 s). */
  idleCloseMs?: number;
  logger?: Logger;
  /**
   * Shared services handed to node factories (a partition pool, say). Unless they hold shared rate
   * budgets already, the worker adds its Redis ones (see {@link RedisRateBudgets}), so that provider
   * nodes on every worker spend from one budget per API key.
   */
  services?: Services;
  /** This worker's name in results and logs (default `host:pid`). */
  name?: string;
  /** The coordinators' shared secret, to open connector configs they keep encrypted (see `runDistributed`). */
  secret?: string;
}

/** A running worker. */
export interface DistributedWorker {
  /** This worker's name. */
  readonly name: string;
  /** Tasks this worker has finished, by outcome. */
  readonly counts: { written: number; failed: number; stopped: number; retried: number; orphaned: number };
  /** Stops taking tasks, lets the running ones finish, closes every job's nodes and connections. */
  close(): Promise<void>;
}

/**
 * Starts a worker: takes document tasks of distributed runs from the queue, runs each job's plan on
 * them (built once per job and kept while tasks come), writes through the job's destinations and
 * reports the outcome. Rejects with `REDIS_UNAVAILABLE` when Redis does not answer.
 *
 * Retries: a document that fails in a node fails for good (it would fail again); a failed write is
 * thrown back to the queue and retried with backoff until the coordinator's attempts are used up.
 * A worker that dies mid-document stops renewing its lock and another worker takes the task over;
 * writes replace whatever was written for the same record, so the destination stays exact.
 */
export async function startWorker(engine: Engine, options: WorkerOptions): Promise<DistributedWorker> {
  const connection = redisOptions(options.redis);
  const keys = queueKeys(options.queue ?? DEFAULT_QUEUE);
  const logger = options.logger ?? silentLogger;
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const idleCloseMs = options.idleCloseMs ?? 60_000;
  const redis = await connectRedis(connection);
  const services = options.services?.clone() ?? new Services();
  if (!services.has(SHARED_RATE_BUDGETS_SERVICE)) services.set(SHARED_RATE_BUDGETS_SERVICE, new RedisRateBudgets(redis));
  const subscriber = redis.duplicate();
  subscriber.on('error', () => {});
  const jobs = new Map<string, { job: Promise<WorkerJob>; idle?: NodeJS.Timeout }>();
  const cancelled = new Set<string>();
  const counts = { written: 0, failed: 0, stopped: 0, retried: 0, orphaned: 0 };

  // Resolves once the job has closed; never rejects (a job that could not open has nothing to close).
  const closeJob = async (jobId: string): Promise<void> => {
    const entry = jobs.get(jobId);
    if (!entry) return;
    jobs.delete(jobId);
    clearTimeout(entry.idle);
    await entry.job.then((j: WorkerJob | undefined) => j?.close()).catch(() => undefined);
  };

  const openJob = async (data: TaskData): Promise<WorkerJob | undefined> => {
    const existing = jobs.get(data.job_id);
    if (existing) {
      const wj = await existing.job;
      // Closed for idleness while this task was on its way: open the job again.
      if (!wj.ended) return wj;
      if (jobs.get(data.job_id) === existing) jobs.delete(data.job_id);
    }
    const job = loadJob(redis, keys, data, options.secret).then((loaded) =>
      loaded === undefined
        ? undefined
        : WorkerJob.open({
            engine,
            spec: loaded.spec,
            workflow: loaded.workflow.workflow,
            taskKey: loaded.taskKey,
            concurrency,
            logger,
            worker: name,
            services,
            onEnded: () => {
              if (jobs.get(data.job_id)?.job === job) jobs.delete(data.job_id);
            },
          }),
    );
    const entry = { job: job as Promise<WorkerJob> };
    jobs.set(data.job_id, entry);
    // A job this worker cannot open is not cached: the next task tries again.
    job.then(
      (j) => {
        if (j === undefined) jobs.delete(data.job_id);
      },
      () => jobs.delete(data.job_id),
    );
    return job;
  };

  const touch = (jobId: string, wj: WorkerJob): void => {
    const entry = jobs.get(jobId);
    if (!entry) return;
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      if (wj.inFlight === 0) void closeJob(jobId);
      else touch(jobId, wj);
    }, idleCloseMs);
    entry.idle.unref();
  };

  /** One task's document through its job; throws when this worker could not run it. */
  async function runTask(data: TaskData): Promise<TaskResult> {
    const wj = await openJob(data);
    // The job is over (its coordinator finished or gave up): nothing may be written for it any more.
    if (!wj) return { outcome: 'stopped', nodes: [], worker: name };
    if (wj.taskKey !== undefined && !hasValidMac(wj.taskKey, data)) {
      throw new QuarryError(
        'DISTRIBUTED_JOB_INVALID',
        `task for "${data.record.record_id}" of job "${data.job_id}" does not carry the coordinator's signature: not run`,
        { details: { job_id: data.job_id } },
      );
    }
    touch(data.job_id, wj);
    try {
      let doc: Awaited<ReturnType<typeof wj.source.get>>;
      try {
        doc = await wj.source.get(data.record, new AbortController().signal);
      } catch (e) {
        throw Object.assign(e instanceof Error ? e : new Error(String(e)), { node: 'source' });
      }
      return await wj.process(doc);
    } finally {
      touch(data.job_id, wj);
    }
  }

  async function processTask(task: BullJob<TaskData, TaskResult>): Promise<TaskResult> {
    const data = task.data;
    const lastAttempt = task.attemptsMade + 1 >= (task.opts.attempts ?? 1);
    let result: TaskResult;
    if (cancelled.has(data.job_id) || (await redis.exists(keys.cancelled(data.job_id))) === 1) {
      result = { outcome: 'stopped', nodes: [], worker: name };
    } else if ((await redis.exists(keys.spec(data.job_id))) === 1 && (await redis.exists(keys.alive(data.job_id))) === 0) {
      // The job is not over but its coordinator is gone: nobody would count the outcome, so nothing
      // is run; whoever accounts for the job (the next run of its workflow) finds this result.
      counts.orphaned++;
      logger.warn('worker: task of a job whose coordinator is gone: not run', { task: task.id, job_id: data.job_id, record_id: data.record.record_id });
      const message = `job "${data.job_id}" lost its coordinator (its heartbeat expired): "${data.record.record_id}" was not run`;
      return {
        outcome: 'failed',
        failure: { record_id: data.record.record_id, filename: data.record.filename, node: 'queue', code: COORDINATOR_LOST, message },
        nodes: [],
        worker: name,
      };
    } else {
      try {
        result = await runTask(data);
      } catch (e) {
        // Not the document's fault as far as anyone can tell (its record could not be re-opened, the
        // job could not start here): back to the queue, maybe to another worker, until the last try.
        if (!lastAttempt) {
          counts.retried++;
          throw e;
        }
        const node = (e as { node?: unknown }).node === 'source' ? 'source' : 'worker';
        result = {
          outcome: 'failed',
          failure: {
            record_id: data.record.record_id,
            filename: data.record.filename,
            node,
            code: isQuarryError(e) ? e.code : 'TASK_FAILED',
            message: errorMessage(e),
          },
          nodes: [],
          worker: name,
        };
      }
    }
    // A failed write may succeed later; a node failure would only repeat.
    if (result.outcome === 'failed' && result.failure.node.startsWith('destination') && !lastAttempt) {
      counts.retried++;
      throw QuarryError.from(result.failure.code, result.failure.message);
    }
    counts[result.outcome]++;
    return result;
  }

  const worker = new Worker<TaskData, TaskResult>(keys.queue, processTask, {
    connection,
    prefix: KEY_PREFIX,
    concurrency,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 2,
    name,
  });
  worker.on('error', (e) => logger.warn('worker: queue error', { error: errorMessage(e) }));
  worker.on('failed', (task, e) => {
    if (task) logger.warn('worker: task failed', { task: task.id, record_id: task.data.record.record_id, attempt: task.attemptsMade, error: errorMessage(e) });
  });

  await subscriber.subscribe(keys.control);
  subscriber.on('message', (_channel: string, text: string) => {
    let msg: ControlMessage;
    try {
      msg = JSON.parse(text) as ControlMessage;
    } catch {
      return;
    }
    if (msg.type === 'cancel') {
      cancelled.add(msg.job_id);
      void jobs.get(msg.job_id)?.job.then(
        (j) => j.cancel(),
        () => undefined,
      );
    }
    if (msg.type === 'finished') {
      cancelled.delete(msg.job_id);
      void closeJob(msg.job_id);
    }
  });
  await worker.waitUntilReady();
  logger.info('worker started', { name, queue: keys.queue, concurrency });

  return {
    name,
    counts,
    async close() {
      await worker.close();
      // Jobs close before the connection they share (rate budgets) goes away.
      await Promise.all([...jobs.keys()].map(closeJob));
      subscriber.disconnect();
      redis.disconnect();
    },
  };
}

/**
 * Reads a task's job spec and workflow. `undefined` when the job is over (its spec is gone).
 * A workflow whose content does not hash to the version the task names is refused.
 */
async function loadJob(
  redis: Redis,
  keys: QueueKeys,
  data: TaskData,
  secret: string | undefined,
): Promise<{ spec: JobSpec; workflow: WorkflowRecord; taskKey: Buffer | undefined } | undefined> {
  const specText = await redis.get(keys.spec(data.job_id));
  if (specText === null) return undefined;
  const { spec, taskKey } = await openJobSpec(JSON.parse(specText) as StoredJobSpec, secret, data.job_id);
  const workflowText = await redis.get(keys.workflow(data.workflow_id, data.workflow_version));
  if (workflowText === null) {
    throw new QuarryError(
      'DISTRIBUTED_JOB_INVALID',
      `workflow "${data.workflow_id}" version ${data.workflow_version} of job "${data.job_id}" is not in Redis`,
      { details: { job_id: data.job_id } },
    );
  }
  const workflow = JSON.parse(workflowText) as WorkflowRecord;
  if (workflowVersion(workflow.workflow) !== data.workflow_version || spec.workflow_version !== data.workflow_version) {
    throw new QuarryError(
      'DISTRIBUTED_JOB_INVALID',
      `workflow "${data.workflow_id}" in Redis does not match version ${data.workflow_version} of job "${data.job_id}"`,
      { details: { job_id: data.job_id } },
    );
  }
  return { spec, workflow, taskKey };
}
