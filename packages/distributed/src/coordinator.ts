import { BatchQueue, wait } from '@quarry/core/concurrency';
import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  createJobShell,
  errorMessage,
  isUnchanged,
  quarryError,
  silentLogger,
  type ConnectorSpec,
  type Engine,
  type Job,
  type JobSummary,
  type Logger,
  type Plan,
  type SourceConnector,
  type SourceRecord,
  type StateStore,
} from '@quarry/core';
import { accountDead, type DeadJobReport } from './dead-jobs.js';
import { DEFAULT_QUEUE, HEARTBEAT_TTL_MS, KEY_PREFIX, queueKeys, RECORD_TTL_S, type ControlMessage, type JobEntry } from './keys.js';
import { connectRedis, redisOptions, type RedisTarget } from './redis.js';
import { DISTRIBUTED_KEY_ENV, holdsSecrets, sealJobSpec } from './sealed-connectors.js';
import { taskMac } from './task-mac.js';
import type { JobSpec, TaskData, TaskResult, WorkflowRecord } from './task.js';
import { pipelineOf, workflowVersion } from './workflow-version.js';

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
 * Tasks sent to Redis in one round trip (`Queue.addBulk`: a MULTI of one add script per task). One
 * by one, each costs a round trip, a socket write and a Redis wake-up, on a machine the coordinator
 * shares with workers.
 */
const ENQUEUE_BATCH = 32;
/** Longest a listed task waits for its batch to fill (the first documents of a slow listing go at once). */
const ENQUEUE_DELAY_MS = 5;

/** One task as `Queue.addBulk` takes it. */
interface QueuedTask {
  name: string;
  data: TaskData;
  opts: JobsOptions;
}

interface Outstanding {
  record: SourceRecord;
  /** Listed, then (once its batch is in Redis) queued. */
  queuedAt: number;
  /** In Redis: until then the task cannot be looked up (see `reconcile`). */
  sent?: boolean;
  /** Set once its outcome is being counted: a second event for the task is ignored. */
  settling?: boolean;
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
  const logger = options.logger ?? silentLogger;
  const shell = createJobShell(plan.nodes, options.signal);
  const { id, signal, emit, stats, counts, announce } = shell;
  const statsByNode = new Map(stats.map((s) => [s.node, s]));
  const keys = queueKeys(options.queue ?? DEFAULT_QUEUE);
  const window = Math.max(1, options.window ?? 256);
  const outstanding = new Map<string, Outstanding>();
  /**
   * The window: listed tasks batched into Redis, one batch after another, each held until its
   * outcome is counted; the listing waits while `window` are held.
   */
  let tasks: BatchQueue<QueuedTask> | undefined;

  /**
   * Turns one task's outcome into the job's counts and events; each task settles once. The task
   * stays outstanding until it is counted: the job must not end while a count is still pending
   * (recording a written version in the state store is awaited before the count).
   */
  async function settle(taskId: string, result: TaskResult): Promise<void> {
    const task = outstanding.get(taskId);
    if (!task || task.settling) return;
    task.settling = true;
    const counted = countOutcome(task, result).finally(() => {
      outstanding.delete(taskId);
      counting.delete(counted);
      tasks?.release();
    });
    counting.add(counted);
    await counted;
  }

  // Outcomes being counted (see settle): the job waits for them before it ends.
  const counting = new Set<Promise<void>>();

  async function countOutcome(task: Outstanding, result: TaskResult): Promise<void> {
    const { record } = task;
    for (const t of result.nodes) {
      const s = statsByNode.get(t.node);
      if (!s) continue;
      s.success++;
      s.ms += t.ms;
      emit({ type: 'node_finished', record_id: record.record_id, node: t.node, ms: t.ms, elements: t.elements });
    }
    for (const w of result.warnings ?? []) emit({ type: 'document_warning', ...w });
    if (result.outcome === 'written') {
      try {
        if (options.state && record.version !== undefined) await options.state.set(record.record_id, record.version);
      } catch (e) {
        logger.warn('state store: cannot record a written version', { record_id: record.record_id, error: errorMessage(e) });
      }
      shell.endDocument(
        { type: 'document_written', record_id: record.record_id, filename: record.filename, elements: result.elements, ms: Date.now() - task.queuedAt },
        logger,
      );
    } else if (result.outcome === 'failed') {
      const s = statsByNode.get(result.failure.node);
      if (s) s.failure++;
      shell.endDocument({ type: 'document_failed', ...result.failure }, logger);
    } else {
      shell.endDocument({ type: 'document_stopped', record_id: record.record_id, filename: record.filename }, logger);
    }
  }

  const failedResult = (taskId: string, code: string, message: string): TaskResult | undefined => {
    const task = outstanding.get(taskId);
    if (!task) return undefined;
    return {
      outcome: 'failed',
      failure: { record_id: task.record.record_id, filename: task.record.filename, node: 'queue', code, message },
      nodes: [],
      worker: '',
    };
  };

  const parseResult = (value: unknown): TaskResult | undefined => {
    try {
      const r = (typeof value === 'string' ? JSON.parse(value) : value) as TaskResult | null;
      return r && typeof r === 'object' && typeof r.outcome === 'string' ? r : undefined;
    } catch {
      return undefined;
    }
  };

  /** Looks up tasks whose outcome event was missed (events are a capped stream, read from "now"). */
  async function reconcile(queue: Queue<TaskData, TaskResult>, olderThanMs: number): Promise<void> {
    const now = Date.now();
    for (const [taskId, task] of [...outstanding]) {
      if (!task.sent || now - task.queuedAt < olderThanMs) continue;
      const state = await queue.getJobState(taskId);
      if (state === 'completed') {
        const result = parseResult((await queue.getJob(taskId))?.returnvalue);
        if (result) await settle(taskId, result);
      } else if (state === 'failed') {
        const reason = (await queue.getJob(taskId))?.failedReason ?? 'task failed';
        const r = failedResult(taskId, 'TASK_FAILED', reason);
        if (r) await settle(taskId, r);
      } else if (state === 'unknown') {
        const r = failedResult(taskId, 'TASK_LOST', `task ${taskId} is no longer in queue "${keys.queue}"`);
        if (r) await settle(taskId, r);
      }
    }
  }

  async function execute(): Promise<JobSummary> {
    await new Promise<void>((r) => setImmediate(r));
    let redis: Redis | undefined;
    let queue: Queue<TaskData, TaskResult> | undefined;
    let queueEvents: QueueEvents | undefined;
    let source: SourceConnector | undefined;
    let reconciler: NodeJS.Timeout | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    try {
      const connection = redisOptions(options.redis);
      redis = await connectRedis(connection);
      const destinations = options.destination === undefined ? [] : Array.isArray(options.destination) ? options.destination : [options.destination];
      const workflow = pipelineOf(plan);
      const version = workflowVersion(workflow);
      const workflowId = options.workflowId ?? plan.name;
      const spec: JobSpec = {
        job_id: id,
        workflow_id: workflowId,
        workflow_version: version,
        source: options.source,
        destinations,
        stall_warning_ms: options.stallWarningMs ?? 60_000,
        node_timeout_ms: options.nodeTimeoutMs ?? 600_000,
      };
      const ctx = { logger, signal };
      source = await engine.createSource(options.source, ctx);
      if (!source.get) {
        throw quarryError('SOURCE_NOT_ADDRESSABLE', `source "${options.source.type}" cannot re-open a document from its record, so it cannot run distributed`, {
          details: { source: options.source.type },
        });
      }
      // Prepared once here, so that workers find the index or directory already there.
      const prepared = await Promise.all(destinations.map((d) => engine.createDestination(d, ctx)));
      try {
        await Promise.all(
          prepared.map((d) => d.prepare?.({ nodes: plan.nodes, ...(plan.embeddingDimensions ? { embeddingDimensions: plan.embeddingDimensions } : {}) })),
        );
      } finally {
        await Promise.allSettled(prepared.map((d) => d.close?.()));
      }
      const record: WorkflowRecord = { workflow };
      await redis.set(keys.workflow(workflowId, version), JSON.stringify(record), 'EX', RECORD_TTL_S);
      if (!options.secret && holdsSecrets(spec)) {
        logger.warn(
          `connector credentials are kept in Redis in clear while the job runs; give the coordinator and its workers a shared secret (${DISTRIBUTED_KEY_ENV}) to encrypt them`,
          { job_id: id },
        );
      }
      const { stored, taskKey } = await sealJobSpec(spec, options.secret);
      // The heartbeat exists before the spec does: a worker never finds the spec without it while this runs.
      const ttl = Math.max(300, options.heartbeatTtlMs ?? HEARTBEAT_TTL_MS);
      const r = redis;
      await r.set(keys.alive(id), '1', 'PX', ttl);
      heartbeat = setInterval(
        () => void r.set(keys.alive(id), '1', 'PX', ttl).catch((e: unknown) => logger.warn('heartbeat: cannot reach Redis', { error: errorMessage(e) })),
        Math.floor(ttl / 3),
      );
      heartbeat.unref();
      const entry: JobEntry = { workflow_id: workflowId, started_at: new Date().toISOString() };
      await redis.hset(keys.jobs, id, JSON.stringify(entry));
      await redis.set(keys.spec(id), JSON.stringify(stored), 'EX', RECORD_TTL_S);

      queue = new Queue<TaskData, TaskResult>(keys.queue, { connection, prefix: KEY_PREFIX });
      queueEvents = new QueueEvents(keys.queue, { connection, prefix: KEY_PREFIX });
      await Promise.all([queue.waitUntilReady(), queueEvents.waitUntilReady()]);
      // Earlier jobs of this workflow whose coordinator died: counted and cleaned up before this one queues.
      for (const report of await accountDead(redis, queue, keys, { workflowId, secret: options.secret, logger })) options.onDeadJob?.(report);
      queueEvents.on('completed', ({ jobId, returnvalue }) => {
        const result = parseResult(returnvalue);
        if (result) void settle(jobId, result);
      });
      queueEvents.on('stalled', ({ jobId }) => {
        const task = outstanding.get(jobId);
        if (task) logger.warn('task taken over from a worker that stopped answering', { task: jobId, record_id: task.record.record_id });
      });
      queueEvents.on('failed', ({ jobId, failedReason }) => {
        const r = failedResult(jobId, 'TASK_FAILED', failedReason);
        if (r) void settle(jobId, r);
      });
      const q = queue;
      const reconcileMs = options.reconcileMs ?? 5000;
      let reconciling = false;
      reconciler = setInterval(() => {
        if (reconciling) return;
        reconciling = true;
        reconcile(q, reconcileMs)
          .catch((e: unknown) => logger.warn('looking up tasks failed', { error: errorMessage(e) }))
          .finally(() => (reconciling = false));
      }, reconcileMs);
      reconciler.unref();
      if ((await queue.getWorkersCount()) === 0) logger.warn('no worker is connected to the queue; tasks wait until one starts', { queue: keys.queue });

      const total = source.count ? await source.count(signal).catch(() => undefined) : undefined;
      announce(total);
      const reprocessAll = options.reprocessAll ?? plan.reprocessAll;
      const taskOptions: JobsOptions = {
        attempts: Math.max(1, options.attempts ?? 3),
        backoff: { type: 'exponential', delay: options.backoffMs ?? 1000 },
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      };
      const send = async (batch: QueuedTask[]): Promise<void> => {
        // The task ids used so far, before the tasks exist: whoever accounts for this job if it dies looks them all up.
        const last = batch.reduce((n, t) => Math.max(n, Number((t.opts.jobId ?? '').slice(id.length + 1))), -1);
        await r.set(keys.queued(id), String(last + 1), 'EX', RECORD_TTL_S);
        await q.addBulk(batch);
        const now = Date.now();
        for (const t of batch) {
          const task = outstanding.get(t.opts.jobId ?? '');
          if (task) Object.assign(task, { sent: true, queuedAt: now });
        }
      };
      // A failed send fails the job: the next push, wait for room or idle throws it.
      const batcher = new BatchQueue<QueuedTask>({ maxItems: ENQUEUE_BATCH, flushMs: ENQUEUE_DELAY_MS, capacity: window, release: 'manual' }, { run: send });
      tasks = batcher;
      let seq = 0;
      for await (const doc of source.list(signal)) {
        if (signal.aborted) break;
        counts.total++;
        if (!reprocessAll && (await isUnchanged(options.state, doc))) {
          shell.endDocument({ type: 'document_skipped', record_id: doc.record_id, filename: doc.filename, version: doc.version }, logger);
          continue;
        }
        if (!(await hasRoom(batcher))) break;
        const { read: _read, ...rec } = doc;
        const taskId = `${id}.${seq++}`;
        outstanding.set(taskId, { record: rec, queuedAt: Date.now() });
        emit({ type: 'document_started', record_id: doc.record_id, filename: doc.filename });
        const data: TaskData = { job_id: id, workflow_id: workflowId, workflow_version: version, record: rec };
        if (taskKey) data.mac = taskMac(taskKey, data);
        batcher.push({ name: 'document', data, opts: { ...taskOptions, jobId: taskId } });
      }
      batcher.end();
      await batcher.idle(signal).catch((e: unknown) => {
        if (!signal.aborted) throw e;
      });
      if (signal.aborted) await stopTasks(redis, queue);
    } catch (e) {
      if (signal.aborted && redis && queue) await stopTasks(redis, queue).catch(() => undefined);
      else shell.fail(e, logger);
      announce();
    } finally {
      clearInterval(reconciler);
      clearInterval(heartbeat);
      tasks?.discard();
      // A cancelled job can end with outcomes still being counted; none is left out.
      await Promise.allSettled([...counting]);
      if (redis) {
        const done: ControlMessage = { type: 'finished', job_id: id };
        await redis.publish(keys.control, JSON.stringify(done)).catch(() => undefined);
        await redis.del(keys.spec(id), keys.cancelled(id), keys.alive(id), keys.queued(id)).catch(() => undefined);
        await redis.hdel(keys.jobs, id).catch(() => undefined);
      }
      await Promise.allSettled([queueEvents?.close(), queue?.close(), source?.close?.()]);
      redis?.disconnect();
    }
    return shell.finish();
  }

  /** Waits until the window has room; false when the job is cancelled meanwhile. */
  async function hasRoom(batcher: BatchQueue<QueuedTask>): Promise<boolean> {
    try {
      await batcher.room(signal);
      return true;
    } catch (e) {
      if (signal.aborted) return false;
      throw e;
    }
  }

  /**
   * Cancel: workers are told (and check a flag before each task), queued tasks are removed, and
   * running ones get `cancelGraceMs` to come back stopped before they are counted stopped anyway.
   */
  async function stopTasks(redis: Redis, queue: Queue<TaskData, TaskResult>): Promise<void> {
    // Tasks listed but not sent yet never reach a worker.
    for (const task of tasks?.discard() ?? []) {
      if (task.opts.jobId !== undefined) await settle(task.opts.jobId, { outcome: 'stopped', nodes: [], worker: '' });
    }
    await redis.set(keys.cancelled(id), '1', 'EX', RECORD_TTL_S);
    const msg: ControlMessage = { type: 'cancel', job_id: id };
    await redis.publish(keys.control, JSON.stringify(msg));
    for (const taskId of [...outstanding.keys()]) {
      const removed = await queue.remove(taskId).catch(() => 0);
      if (removed === 1) await settle(taskId, { outcome: 'stopped', nodes: [], worker: '' });
    }
    if (tasks && outstanding.size > 0) {
      const graceOver = new AbortController();
      const stopTimer = new AbortController();
      void wait(options.cancelGraceMs ?? 30_000, { signal: stopTimer.signal }).then(
        () => graceOver.abort(),
        () => undefined,
      );
      await tasks.idle(graceOver.signal).catch(() => undefined);
      stopTimer.abort();
    }
    for (const taskId of [...outstanding.keys()]) {
      await queue.remove(taskId).catch(() => 0);
      await settle(taskId, { outcome: 'stopped', nodes: [], worker: '' });
    }
  }

  const done = execute();
  return shell.handle(done);
}
