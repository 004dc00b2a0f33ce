import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { errorMessage, QuarryError } from '../errors.js';

/** A task's failure as a worker reports it: a stable code and a message. */
export interface WorkerFailure {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** What a pool worker posts back for one task. */
export type WorkerReply<R> = { id: number; ok: true; result: R } | { id: number; ok: false; error: WorkerFailure };

/** What a pool worker receives for one task. */
export interface WorkerTask<T> {
  id: number;
  task: T;
}

interface Running<R> {
  id: number;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
  detach: () => void;
}

interface Slot<R> {
  worker: Worker;
  current?: Running<R>;
}

interface Queued<T, R> {
  task: T;
  transfer: ArrayBuffer[];
  signal?: AbortSignal;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** Options of {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** The worker module: a `.js` file, or a `.ts` file when running from sources (tests). */
  workerUrl: URL;
  /** Number of worker threads (default: available parallelism). */
  size?: number;
  /** V8 heap limits of each worker thread (Node's `resourceLimits`). */
  resourceLimits?: ResourceLimits;
  /** Names the workers in error messages, e.g. `partition` ("a partition worker stopped"). */
  name?: string;
}

/**
 * How a worker thread is started: the compiled `.js` module directly; a `.ts` module (sources, under
 * tests) through tsx, resolving workspace packages to their sources as vitest does.
 */
function spawn(url: URL, resourceLimits: ResourceLimits | undefined): Worker {
  const limits = resourceLimits ? { resourceLimits } : {};
  if (!url.pathname.endsWith('.ts')) return new Worker(url, limits);
  // The ESM build of tsx's API, beside the CommonJS one that require.resolve finds.
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const boot = `const { workerData } = require('node:worker_threads'); import(workerData.tsx).then((m) => { m.register(); return import(workerData.entry); });`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=source'], workerData: { tsx, entry: url.href }, ...limits });
}

function abortError(signal: AbortSignal): QuarryError {
  const reason: unknown = signal.reason;
  if (reason instanceof QuarryError) return reason;
  return new QuarryError('JOB_ABORTED', `the task was aborted${reason === undefined ? '' : `: ${errorMessage(reason)}`}`);
}

/**
 * A fixed pool of worker threads running one module's task handler, for CPU-bound work such as
 * partitioning. Tasks queue first-come first-served; a task that fails (or whose worker dies)
 * rejects alone, and a dead worker is replaced, so one bad document never stops the others. A task
 * whose signal aborts leaves the queue, or, when running, has its worker terminated and replaced:
 * a timed-out or cancelled document does not keep a core busy.
 *
 * The worker module answers each {@link WorkerTask} message with one {@link WorkerReply}.
 */
export class WorkerPool<T, R> {
  private readonly slots: Array<Slot<R>> = [];
  private readonly queue: Array<Queued<T, R>> = [];
  private readonly name: string;
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.name = options.name ? `${options.name} ` : '';
    const size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    for (let i = 0; i < size; i++) this.slots.push(this.start());
  }

  /** Number of worker threads. */
  get size(): number {
    return this.slots.length;
  }

  /**
   * Runs one task on the next free worker. `transfer` lists buffers moved (not copied) to it;
   * `signal` withdraws the task (rejecting with its reason, or `JOB_ABORTED`).
   */
  run(task: T, transfer: ArrayBuffer[] = [], signal?: AbortSignal): Promise<R> {
    if (this.closed) return Promise.reject(new QuarryError('INVALID_ARGUMENT', `the ${this.name}worker pool is closed`));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<R>((resolve, reject) => {
      const queued: Queued<T, R> = { task, transfer, resolve, reject, ...(signal ? { signal } : {}) };
      this.queue.push(queued);
      // Withdrawn while still queued: reject at once (a running task is handled in dispatch).
      signal?.addEventListener('abort', () => {
        const i = this.queue.indexOf(queued);
        if (i >= 0) {
          this.queue.splice(i, 1);
          reject(abortError(signal));
        }
      }, { once: true });
      this.dispatch();
    });
  }

  /** Stops every worker; queued tasks reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) q.reject(new QuarryError('JOB_ABORTED', `the ${this.name}worker pool was closed`));
    const running = this.slots.map((s) => s.current).filter((c): c is Running<R> => c !== undefined);
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
    for (const c of running) {
      c.detach();
      c.reject(new QuarryError('JOB_ABORTED', `the ${this.name}worker pool was closed`));
    }
  }

  private start(): Slot<R> {
    const slot: Slot<R> = { worker: spawn(this.options.workerUrl, this.options.resourceLimits) };
    slot.worker.on('message', (reply: WorkerReply<R>) => {
      const cur = slot.current;
      if (!cur || cur.id !== reply.id) return;
      slot.current = undefined;
      cur.detach();
      if (reply.ok) cur.resolve(reply.result);
      else cur.reject(new QuarryError(reply.error.code, reply.error.message, { details: reply.error.details ?? {} }));
      this.dispatch();
    });
    slot.worker.on('error', (e) => this.replace(slot, new QuarryError('NODE_FAILED', `a ${this.name}worker stopped: ${e.message}`)));
    slot.worker.on('exit', (code) => this.replace(slot, new QuarryError('NODE_FAILED', `a ${this.name}worker stopped: exit code ${code}`)));
    // Idle workers must not keep the process alive.
    slot.worker.unref();
    return slot;
  }

  /** Fails the slot's task with `error` and puts a fresh worker in its place (once per worker). */
  private replace(slot: Slot<R>, error: QuarryError): void {
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) return;
    const cur = slot.current;
    slot.current = undefined;
    if (cur) {
      cur.detach();
      cur.reject(error);
    }
    this.slots[i] = this.start();
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      let next = this.queue.shift();
      // Tasks withdrawn while queued were already rejected by their abort listener.
      while (next?.signal?.aborted) next = this.queue.shift();
      if (!next) break;
      const id = this.nextId++;
      const job = next;
      const onAbort = (): void => {
        const err = abortError(job.signal!);
        if (slot.current?.id === id) {
          // Terminating is the only way to stop synchronous work in a worker.
          this.replace(slot, err);
          void slot.worker.terminate();
        }
      };
      job.signal?.addEventListener('abort', onAbort, { once: true });
      slot.current = { id, resolve: job.resolve, reject: job.reject, detach: () => job.signal?.removeEventListener('abort', onAbort) };
      slot.worker.ref();
      const message: WorkerTask<T> = { id, task: job.task };
      slot.worker.postMessage(message, job.transfer);
    }
    for (const slot of this.slots) if (!slot.current) slot.worker.unref();
  }
}
