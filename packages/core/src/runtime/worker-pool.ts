import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { errorMessage, QuarryError } from '../errors.js';
import type { WorkerEntryData, WorkerReply } from './worker-protocol.js';

export type { WorkerTaskHandler } from './worker-protocol.js';

/** Options of {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /**
   * The worker module, whose default export is the task function ({@link WorkerTaskHandler}): a
   * `.js` file, or a `.ts` file when running from sources (tests).
   */
  workerUrl: URL;
  /** Number of worker threads (default: available parallelism). */
  size?: number;
  /** V8 heap limits of each worker thread (Node's `resourceLimits`). */
  resourceLimits?: ResourceLimits;
  /** Names the workers in error messages, e.g. `partition` ("a partition worker stopped"). */
  name?: string;
}

/** The pool's entry module next to this file: `.js` when built, `.ts` when run from sources. */
function entryUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./worker-entry.${ext}`, import.meta.url);
}

/**
 * Node options of threads that load `.ts` modules (sources, under tests): tsx's ESM hooks,
 * registered in the thread before piscina loads anything, and the `source` export condition so that
 * workspace packages resolve to their sources as they do under vitest. Only the ESM hooks: with
 * tsx's CommonJS ones too, piscina's first attempt, `require(filename)`, would load the module as
 * CommonJS.
 */
function tsExecArgv(): string[] {
  // The ESM build of tsx's API, beside the CommonJS one that require.resolve finds.
  const api = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const register = `import { register } from ${JSON.stringify(api)}; register();`;
  return ['--conditions=source', '--import', `data:text/javascript,${encodeURIComponent(register)}`];
}

function abortError(signal: AbortSignal): QuarryError {
  const reason: unknown = signal.reason;
  if (reason instanceof QuarryError) return reason;
  return new QuarryError('JOB_ABORTED', `the task was aborted${reason === undefined ? '' : `: ${errorMessage(reason)}`}`);
}

/** How a dead thread is described: piscina words an exit as "worker exited with code: N". */
function stopReason(e: unknown): string {
  // An uncaught DOMException, such as the DataCloneError of a result that cannot be cloned, reaches
  // this thread as an empty object.
  const message = typeof e === 'object' && e !== null && !(e instanceof Error) ? '' : errorMessage(e);
  if (!message) return 'an uncaught exception it could not report (for example, a result that cannot be cloned)';
  const exit = /^worker exited with code: (-?\d+)$/.exec(message);
  return exit ? `exit code ${exit[1]}` : message;
}

/**
 * A fixed pool of worker threads (on piscina) running one module's task function, for CPU-bound work
 * such as partitioning. Tasks queue first-come first-served; a task that fails (or whose worker
 * dies: exit, uncaught error, out of heap) rejects alone, and a dead worker is replaced, so one bad
 * document never stops the others. A task whose signal aborts leaves the queue, or, when running, has
 * its worker terminated and replaced: a timed-out or cancelled document does not keep a core busy.
 * Idle workers do not keep the process alive.
 *
 * @example
 * ```ts
 * const pool = new WorkerPool<{ word: string }, string>({ workerUrl: new URL('./upper-worker.js', import.meta.url), size: 2 });
 * await pool.run({ word: 'hi' }); // 'HI'
 * await pool.close();
 * ```
 */
export class WorkerPool<T, R> {
  private readonly piscina: Piscina<T, WorkerReply<R>>;
  private readonly name: string;
  private closed = false;

  constructor(options: WorkerPoolOptions) {
    this.name = options.name ? `${options.name} ` : '';
    const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    const entry = entryUrl();
    const workerData: WorkerEntryData = { module: options.workerUrl.href };
    const needsTsx = entry.pathname.endsWith('.ts') || options.workerUrl.pathname.endsWith('.ts');
    this.piscina = new Piscina<T, WorkerReply<R>>({
      filename: entry.href,
      workerData,
      minThreads: size,
      maxThreads: size,
      concurrentTasksPerWorker: 1,
      // Idle threads wait on their message port, not in Atomics.wait: a parser's leftover async work
      // (and the task module's loading at start) goes on between tasks.
      atomics: 'disabled',
      // A task that finds no free thread goes back to the head of the queue, not its tail.
      stricterFIFO: true,
      recordTiming: false,
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
      ...(needsTsx ? { execArgv: tsExecArgv() } : {}),
    });
    // A thread that dies with no task is replaced; piscina reports it as an 'error' event, which
    // without a listener would throw in this process.
    this.piscina.on('error', () => undefined);
  }

  /** Number of live worker threads: `size` while open (a dead one is replaced at once), 0 once closed. */
  get size(): number {
    return this.piscina.threads.length;
  }

  /**
   * Runs one task on the next free worker. `transfer` lists buffers moved (not copied) to it;
   * `signal` withdraws the task (rejecting with its reason, or `JOB_ABORTED`).
   */
  async run(task: T, transfer: ArrayBuffer[] = [], signal?: AbortSignal): Promise<R> {
    if (this.closed) throw new QuarryError('INVALID_ARGUMENT', `the ${this.name}worker pool is closed`);
    if (signal?.aborted) throw abortError(signal);
    let reply: WorkerReply<R>;
    try {
      reply = await this.piscina.run(task, { transferList: transfer, ...(signal ? { signal } : {}) });
    } catch (e) {
      throw this.failure(e, signal);
    }
    if (reply.ok) return reply.result;
    throw new QuarryError(reply.error.code, reply.error.message, { details: reply.error.details ?? {} });
  }

  /** Stops every worker; running and queued tasks reject with `JOB_ABORTED`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.piscina.destroy();
  }

  /** The coded error of a task piscina rejected: the entry answers every task, so its thread died (unless aborted, closed or unsendable). */
  private failure(e: unknown, signal: AbortSignal | undefined): QuarryError {
    if (signal?.aborted) return abortError(signal);
    if (this.closed) return new QuarryError('JOB_ABORTED', `the ${this.name}worker pool was closed`);
    // Thrown here, by postMessage, before any thread saw the task.
    if (e instanceof Error && e.name === 'DataCloneError') return new QuarryError('INVALID_ARGUMENT', `the task cannot be sent to a ${this.name}worker: ${e.message}`);
    return new QuarryError('NODE_FAILED', `a ${this.name}worker stopped: ${stopReason(e)}`);
  }
}
