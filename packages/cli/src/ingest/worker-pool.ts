import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { QuarryError } from '@quarry/core';

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

interface Slot<R> {
  worker: Worker;
  current?: { id: number; resolve: (r: R) => void; reject: (e: unknown) => void };
}

interface Queued<T, R> {
  task: T;
  transfer: ArrayBuffer[];
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** Options of {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** The worker module: a `.js` file, or a `.ts` file when running from sources (tests). */
  workerUrl: URL;
  /** Number of worker threads (default: available parallelism). */
  size?: number;
}

/**
 * How a worker thread is started: the compiled `.js` module directly; a `.ts` module (sources, under
 * tests) through tsx, resolving workspace packages to their sources as vitest does.
 */
function spawn(url: URL): Worker {
  if (!url.pathname.endsWith('.ts')) return new Worker(url);
  // The ESM build of tsx's API, beside the CommonJS one that require.resolve finds.
  const tsx = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const boot = `const { workerData } = require('node:worker_threads'); import(workerData.tsx).then((m) => { m.register(); return import(workerData.entry); });`;
  return new Worker(boot, { eval: true, execArgv: ['--conditions=source'], workerData: { tsx, entry: url.href } });
}

/**
 * A fixed pool of worker threads running one module's task handler, for CPU-bound work such as
 * partitioning. Tasks queue first-come first-served; a task that fails (or whose worker dies)
 * rejects alone, and a dead worker is replaced, so one bad document never stops the others.
 */
export class WorkerPool<T, R> {
  private readonly slots: Array<Slot<R>> = [];
  private readonly queue: Array<Queued<T, R>> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    const size = Math.max(1, options.size ?? availableParallelism());
    for (let i = 0; i < size; i++) this.slots.push(this.start());
  }

  /** Number of worker threads. */
  get size(): number {
    return this.slots.length;
  }

  /** Runs one task on the next free worker. `transfer` lists buffers moved (not copied) to it. */
  run(task: T, transfer: ArrayBuffer[] = []): Promise<R> {
    if (this.closed) return Promise.reject(new QuarryError('INVALID_ARGUMENT', 'the worker pool is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ task, transfer, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every worker; queued tasks reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queue.splice(0)) q.reject(new QuarryError('JOB_ABORTED', 'the worker pool was closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private start(): Slot<R> {
    const slot: Slot<R> = { worker: spawn(this.options.workerUrl) };
    slot.worker.on('message', (reply: WorkerReply<R>) => {
      const cur = slot.current;
      if (!cur || cur.id !== reply.id) return;
      slot.current = undefined;
      if (reply.ok) cur.resolve(reply.result);
      else cur.reject(new QuarryError(reply.error.code, reply.error.message, { details: reply.error.details ?? {} }));
      this.dispatch();
    });
    const replace = (why: string): void => {
      const cur = slot.current;
      slot.current = undefined;
      cur?.reject(new QuarryError('NODE_FAILED', `a partition worker stopped: ${why}`));
      if (this.closed) return;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots[i] = this.start();
      this.dispatch();
    };
    slot.worker.on('error', (e) => replace(e.message));
    slot.worker.on('exit', (code) => {
      if (!this.closed && this.slots.includes(slot)) replace(`exit code ${code}`);
    });
    // Idle workers must not keep the process alive.
    slot.worker.unref();
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.current) continue;
      const next = this.queue.shift();
      if (!next) return;
      const id = this.nextId++;
      slot.current = { id, resolve: next.resolve, reject: next.reject };
      slot.worker.ref();
      const message: WorkerTask<T> = { id, task: next.task };
      slot.worker.postMessage(message, next.transfer);
    }
    for (const slot of this.slots) if (!slot.current) slot.worker.unref();
  }
}
