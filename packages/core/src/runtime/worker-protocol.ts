import { errorMessage, isQuarryError } from '../errors.js';

/**
 * The task function a {@link ProcessPool} worker module exports as its default export: it takes one
 * task and returns (or resolves to) its result. A thrown `QuarryError` fails that task alone with
 * its code and details; any other throw fails it with `NODE_FAILED`. `signal` aborts when the pool
 * withdraws the task (its caller gave up): a task that checks it and stops keeps its process, one
 * that does not is killed after the pool's grace period. `heavy()` tells the pool, as soon as the
 * task knows it, that it will work long (seconds of CPU): a small-lane task then hands the lane to
 * another process at once instead of after the lane's hand-off time. `part`, present when the caller
 * takes the result in parts (the `onPart` option of the pool's `run`), sends one part of a long result ahead of
 * the reply, as a message of its own: it resolves once the caller has it and its event loop has
 * turned (await it before sending the next, so that the caller deserializes one part per turn
 * instead of one huge message in one go), and rejects with the signal's reason when the task is
 * withdrawn. The caller gets the parts in order, then the returned result.
 *
 * @example
 * ```ts
 * // upper-worker.ts
 * const upper: WorkerTaskHandler<{ word: string }, string> = ({ word }) => word.toUpperCase();
 * export default upper;
 * ```
 */
export type WorkerTaskHandler<T, R, P = never> = (task: T, signal: AbortSignal, heavy: () => void, part?: (part: P) => Promise<void>) => R | Promise<R>;

/** A task's failure as it crosses back from a worker: a stable code and a message. */
export interface WorkerFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * What the pool's worker entry answers for one task. Errors travel as data: the structured clone
 * of an `Error` keeps its message but drops `code` and `details`.
 */
export type WorkerReply<R> = { ok: true; result: R } | { ok: false; error: WorkerFailure };

/** What the pool sends a worker process: one task, numbered. */
export interface TaskMessage<T> {
  id: number;
  task: T;
  /** The caller takes the result in parts: the task function gets a `part` sender. */
  parts?: true;
}

/** What a worker process sends for the task of that `id`: one part of its result, ahead of the reply. */
export interface PartMessage<P> {
  id: number;
  part: P;
}

/** What the pool answers a part of the task of that `id` once the caller has it and the event loop has turned: the next may come. */
export interface PartTakenMessage {
  partTaken: number;
}

/** What the pool sends a worker process to withdraw the task of that `id`: the task's signal aborts. */
export interface AbortMessage {
  abort: number;
}

/**
 * What the pool sends a worker process to have it ready itself for the tasks to come: it runs its
 * worker module's `warmUp` export (loading what a first task would otherwise load), if it has one.
 */
export interface WarmUpMessage {
  warmUp: true;
  /** Ready only what is cheap to keep: see {@link WarmUpOptions.light}. */
  light?: boolean;
}

/** What a worker process sends when the task of that `id` says it will work long (its `heavy()`). */
export interface HeavyMessage {
  heavy: number;
}

/**
 * What a worker process sends when setup work starts (`true`) or ends (`false`) while it runs a
 * task: the process's own, not the task's (see `processSetup`); spans may nest.
 */
export interface SetupMessage {
  setup: boolean;
}

/**
 * Where a pool process keeps its reporter of setup spans (`processSetup`), a global: the worker
 * module's code may hold its own copy of the function (bundled) and must still find it.
 */
export const SETUP_REPORTER = Symbol.for('quarry.process-pool.setup');

/** Sends a {@link SetupMessage} to the pool. */
export type SetupReporter = (message: SetupMessage) => void;

/** What a worker process sends when the warm-up it was asked for has ended (done or failed). */
export interface WarmedUpMessage {
  warmedUp: true;
}

/**
 * The optional `warmUp` export of a worker module: loads and runs once what its tasks will need
 * (parsers, their caches), so that the first real task does not pay for it. It should await
 * `untilIdle()` between its steps: that waits while a task runs, so a task arriving during the
 * warm-up is not slowed by more than one step. Its failures are ignored: a process that could not
 * warm up loads what it needs on demand.
 */
export type WorkerWarmUp = (untilIdle: () => Promise<void>, options: WarmUpOptions) => Promise<void>;

/** What a {@link WorkerWarmUp} is told about the process it readies. */
export interface WarmUpOptions {
  /**
   * Ready only what is cheap to keep idle, not what holds a hundred megabytes (an OCR engine): the
   * process is the small lane's spare, or a lane process beside one that keeps it. Such a process
   * loads the rest on first use, or when the pool asks it to warm up again with `light: false` (a
   * spare promoted into the lane).
   */
  light: boolean;
}

/** What a worker process sends once its task module has loaded (or failed to load). */
export interface ReadyMessage {
  ready: true;
  /** The process's V8 heap limit in MB (Node's default unless the pool set one). */
  heapLimitMb: number;
}

/** What a worker process answers for the task of the same `id`. */
export interface WorkerReplyMessage<R> {
  id: number;
  reply: WorkerReply<R>;
}

/** The coded form of what a task threw. */
export function workerFailure(e: unknown): WorkerFailure {
  if (isQuarryError(e)) return { code: e.code, message: e.message, details: e.details };
  return { code: 'NODE_FAILED', message: errorMessage(e) };
}
