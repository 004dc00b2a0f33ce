import { BatchQueue, timers, type ScheduledTimer, type TimerScheduler } from '@quarry/core/batch-queue';
import type { Logger } from '@quarry/core';
import { type QuarryError, quarryError } from '@quarry/core/errors';

/**
 * How long an idle worker is kept, in milliseconds. Starting one costs about 0.75 s of CPU (seconds
 * of wall time on a busy machine), so a process that OCRs every minute or so (a server's e-mails
 * with a logo) keeps its engine between documents; a partition pool ends a process idle for its own
 * recycle time (30 s by default), engine and all, so an idle server holds none.
 */
export const OCR_IDLE_MS = 120_000;

/** The slice of a tesseract.js worker the pool drives. */
export interface PoolWorker {
  terminate(): Promise<unknown>;
  worker?: { ref?(): void; unref?(): void } | null;
}

interface Pooled<W extends PoolWorker> {
  worker: W;
  busy: boolean;
  /** Set once the worker is being terminated: nothing may be sent to it any more. */
  terminated: boolean;
  /** Ends it once it has sat idle `idleMs`. */
  idle?: ScheduledTimer;
  /** Ends the job running on this worker, if any. */
  stop?: (e: unknown) => void;
}

/** A call waiting for a worker; `run` settles it and never throws. */
interface Job<W extends PoolWorker> {
  logger: Logger | undefined;
  signal: AbortSignal | undefined;
  run(pooled: Pooled<W>): Promise<void>;
  fail(e: unknown): void;
}

/** What a call gets when {@link OcrWorkerPool.release} ends it. */
export function releasedError(): QuarryError {
  return quarryError('JOB_ABORTED', 'the OCR workers were released');
}

/** What a call gets when its signal aborts. */
export function abortError(signal: AbortSignal): QuarryError {
  return quarryError('JOB_ABORTED', 'OCR was cancelled', { cause: signal.reason });
}

/**
 * The OCR workers of one language set. Calls queue first come first served on core's
 * `BatchQueue` (one call per batch, as many at once as the pool has workers); a worker starts when
 * a call finds none idle, and one idle for `idleMs` is terminated without keeping the process alive.
 */
export class OcrWorkerPool<W extends PoolWorker> {
  private readonly workers: Array<Pooled<W>> = [];
  private readonly queue: BatchQueue<Job<W>>;
  /** Set by {@link release}: workers still starting are terminated when they come up. */
  private released = false;
  /** Set by {@link keepIdle}: this many workers outlive `idleMs` idle. */
  private kept = 0;

  constructor(
    private readonly start: (logger: Logger | undefined) => Promise<W>,
    size: number,
    private readonly idleMs = OCR_IDLE_MS,
    private readonly scheduler: TimerScheduler = timers({ keepAlive: false }),
  ) {
    this.queue = new BatchQueue<Job<W>>({ maxItems: 1, flushMs: 0, concurrency: size, scheduler }, { run: ([job]) => this.runJob(job!) });
  }

  /** Live workers, busy or idle. */
  get size(): number {
    return this.workers.length;
  }

  /**
   * Runs `job` on a worker once one is free; `signal` withdraws a waiting call, and aborting it
   * (or {@link release}) ends a running one at once: `job` races a promise that rejects then,
   * since tesseract.js never settles a job whose worker was terminated.
   */
  run<T>(logger: Logger | undefined, signal: AbortSignal | undefined, job: (worker: W, alive: () => boolean) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        if (this.queue.remove((j) => j === queued).length > 0) queued.fail(abortError(signal!));
      };
      const queued: Job<W> = {
        logger,
        signal,
        fail: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
        run: async (pooled) => {
          signal?.removeEventListener('abort', onAbort);
          try {
            resolve(await this.onWorker(pooled, signal, job));
          } catch (e) {
            reject(e);
          }
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(queued);
    });
  }

  /**
   * Keeps up to `count` workers started however long they sit idle (a process readied for work to
   * come keeps its engine); idle workers beyond that are still ended after `idleMs`, and `0` gives
   * every idle worker its limit back.
   */
  keepIdle(count: number): void {
    this.kept = count;
    for (const w of this.workers) if (!w.busy && !w.terminated && !w.idle) w.idle = this.idleTimer(w);
  }

  /** Terminates every worker: running and waiting calls fail with `JOB_ABORTED`. */
  async release(): Promise<void> {
    this.released = true;
    for (const job of this.queue.discard()) job.fail(releasedError());
    for (const w of this.workers) w.stop?.(releasedError());
    await Promise.all(this.workers.map((w) => this.discard(w)));
  }

  /** A batch of the queue: one call, on an idle worker or one started for it. */
  private async runJob(job: Job<W>): Promise<void> {
    let pooled: Pooled<W>;
    try {
      pooled = await this.acquire(job);
    } catch (e) {
      job.fail(e);
      return;
    }
    await job.run(pooled);
  }

  private async acquire(job: Job<W>): Promise<Pooled<W>> {
    const idle = this.workers.find((w) => !w.busy && !w.terminated);
    if (idle) {
      this.markBusy(idle);
      return idle;
    }
    let worker: W;
    try {
      worker = await this.start(job.logger);
    } catch (e) {
      // The calls queued behind this start fail with it, as they would when starting their own.
      for (const waiting of this.queue.discard()) waiting.fail(e);
      throw e;
    }
    if (this.released) {
      await worker.terminate().catch(() => undefined);
      throw releasedError();
    }
    const pooled: Pooled<W> = { worker, busy: false, terminated: false };
    this.workers.push(pooled);
    this.markBusy(pooled);
    if (job.signal?.aborted) {
      this.idle(pooled);
      throw abortError(job.signal);
    }
    return pooled;
  }

  private async onWorker<T>(pooled: Pooled<W>, signal: AbortSignal | undefined, job: (worker: W, alive: () => boolean) => Promise<T>): Promise<T> {
    // Released between handing the worker over and this line running.
    if (pooled.terminated) throw releasedError();
    let stopped = false;
    const stop = new Promise<never>((_, reject) => {
      pooled.stop = (e) => {
        stopped = true;
        reject(e);
      };
    });
    const onAbort = (): void => pooled.stop?.(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const running = job(pooled.worker, () => !pooled.terminated);
      running.catch(() => undefined);
      return await Promise.race([running, stop]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      pooled.stop = undefined;
      if (stopped) await this.discard(pooled);
      else this.idle(pooled);
    }
  }

  private markBusy(w: Pooled<W>): void {
    w.busy = true;
    w.idle?.unsubscribe();
    w.idle = undefined;
    // A busy worker keeps the process alive so a pending recognition is not cut short.
    w.worker.worker?.ref?.();
  }

  /** Back in the pool: the next queued call takes it, or it is terminated after `idleMs` (unless kept). */
  private idle(w: Pooled<W>): void {
    w.busy = false;
    w.worker.worker?.unref?.();
    w.idle = this.idleTimer(w);
  }

  /** Ends `w` after `idleMs`, unless it is then one of the {@link keepIdle} workers. */
  private idleTimer(w: Pooled<W>): ScheduledTimer {
    return this.scheduler.schedule(() => {
      w.idle = undefined;
      if (this.workers.length > this.kept) void this.discard(w);
    }, this.idleMs);
  }

  private async discard(w: Pooled<W>): Promise<void> {
    w.terminated = true;
    w.idle?.unsubscribe();
    const i = this.workers.indexOf(w);
    if (i >= 0) this.workers.splice(i, 1);
    await w.worker.terminate().catch(() => undefined);
  }
}
