import type { Subscribable } from 'rxjs';
import { abortReason } from '../runtime/sleep.js';
import { timers, type ScheduledTimer, type TimerScheduler } from './timer-scheduler.js';

/** How a {@link BatchQueue} groups, times and bounds its work. */
export interface BatchQueueOptions {
  /** Most items per batch (default: no limit). */
  maxItems?: number;
  /** Most weight per batch, e.g. tokens or bytes (default: no limit); a heavier single item goes alone. */
  maxWeight?: number;
  /**
   * How long the oldest waiting item may wait for its batch to fill, in ms, while a batch is in
   * flight (0: a batch is cut as soon as a slot is free).
   */
  flushMs: number;
  /** The same wait when no batch is in flight (default `flushMs`). */
  idleFlushMs?: number;
  /**
   * Whether a push cuts a partial batch that is due at once (default true), or leaves it to the
   * timer, so that everything the producer pushes in its turn is batched (and spread) together.
   */
  cutOnPush?: boolean;
  /** Batches in flight at once (default 1): batches then run one after another, in order. */
  concurrency?: number;
  /**
   * Spreads what is waiting over the free slots, in batches of at least this weight, instead of
   * filling one batch to `maxWeight` while the other slots stay idle (default: no spreading).
   */
  spreadMinWeight?: number;
  /**
   * Items held at once before {@link BatchQueue.room} waits (default: no limit): the producer's
   * backpressure. An item is held from `push` until its batch settles, or, with
   * `release: 'manual'`, until {@link BatchQueue.release} is called for it.
   */
  capacity?: number;
  /** When a held item stops counting against `capacity` (default `'batch'`). */
  release?: 'batch' | 'manual';
  /**
   * Where the flush timer runs: an rxjs scheduler (a `TestScheduler` in marble tests) or any
   * {@link TimerScheduler} (default {@link timers}, the real clock, which loads no rxjs).
   */
  scheduler?: TimerScheduler;
}

/** What a {@link BatchQueue} does with its batches. */
export interface BatchQueueHandlers<T> {
  /**
   * Runs one batch; the batch settles when the returned promise settles or the returned observable
   * completes. A run that fails puts the queue in error: no further batch is cut, and `push`,
   * `flush` and `idle` throw it.
   */
  run(batch: T[]): PromiseLike<unknown> | Subscribable<unknown>;
  /**
   * Looks at an item as its batch is cut and returns its weight (which may differ from the weight
   * it was pushed with, e.g. once it is tokenized), or `undefined` to drop it.
   */
  admit?(item: T, weight: number): number | undefined;
  /** A key per item: a batch holds an item per key, and two batches holding a key never run at once. */
  key?(item: T): string;
}

interface Waiting<T> {
  item: T;
  weight: number;
  at: number;
}

interface Waiter {
  ready(): boolean;
  resolve(): void;
  reject(e: unknown): void;
  detach(): void;
}

/**
 * A bounded batching queue: items pushed one at a time are cut into batches of at most `maxItems`
 * items and `maxWeight` weight, run by `run` with at most `concurrency` batches in flight. A partial
 * batch waits at most `flushMs` (from its oldest item) for more items, unless the queue has ended or
 * a producer waits for room; `capacity` bounds the items held at once, and {@link room} gives the
 * producer its backpressure. Its timer runs on an injected scheduler, in the manner of rxjs'
 * `bufferTime`, so the queue can be tested with marbles in virtual time; it loads no rxjs itself.
 *
 * @example
 * ```ts
 * const queue = new BatchQueue<string>({ maxItems: 32, flushMs: 5 }, { run: (batch) => send(batch) });
 * for (const line of lines) {
 *   await queue.room();
 *   queue.push(line);
 * }
 * queue.end();
 * await queue.idle();
 * ```
 */
export class BatchQueue<T> {
  private waiting: Array<Waiting<T>> = [];
  private waitingWeight = 0;
  private readonly priority: T[][] = [];
  private readonly busyKeys = new Set<string>();
  private readonly waiters = new Set<Waiter>();
  private readonly scheduler: TimerScheduler;
  private inFlightCount = 0;
  private heldCount = 0;
  private ended = false;
  /** Set by `flush` and a producer waiting for room: what waits is cut at once until none is left. */
  private urgent = false;
  private failure: { error: unknown } | undefined;
  private timer: ScheduledTimer | undefined;
  /** Index of the item being cut, kept right when `remove` runs from inside `admit`. */
  private cursor = 0;
  private pumping = false;
  private pumpAgain = false;

  constructor(
    private readonly options: BatchQueueOptions,
    private readonly handlers: BatchQueueHandlers<T>,
  ) {
    this.scheduler = options.scheduler ?? timers();
  }

  /** Items waiting to be cut into a batch (re-queued batches included). */
  get size(): number {
    return this.waiting.length + this.priority.reduce((n, b) => n + b.length, 0);
  }

  /** Batches running now. */
  get inFlight(): number {
    return this.inFlightCount;
  }

  /** Items counting against `capacity`. */
  get held(): number {
    return this.heldCount;
  }

  /** Adds an item of `weight` (default 1) and cuts whatever batch is due. */
  push(item: T, weight = 1): void {
    this.add(item, weight);
    this.pump(this.options.cutOnPush ?? true);
  }

  /** Adds several items (weighed by `weight`, default 1 each), then cuts whatever batch is due. */
  pushAll(items: readonly T[], weight?: (item: T) => number): void {
    for (const item of items) this.add(item, weight ? weight(item) : 1);
    this.pump(this.options.cutOnPush ?? true);
  }

  private add(item: T, weight: number): void {
    this.throwIfFailed();
    if (this.ended) throw new Error('BatchQueue: push after end()');
    this.waiting.push({ item, weight, at: this.scheduler.now() });
    this.waitingWeight += weight;
    this.heldCount++;
  }

  /** Runs `batch` again as it is, before any new batch (it is not held a second time). */
  requeue(batch: T[]): void {
    if (batch.length === 0) return;
    this.priority.push(batch);
    this.pump();
  }

  /** Withdraws the waiting items that match; returns them (with `release: 'batch'` they stop being held). */
  remove(match: (item: T) => boolean): T[] {
    const removed: T[] = [];
    const kept: Array<Waiting<T>> = [];
    let weight = 0;
    for (let i = 0; i < this.waiting.length; i++) {
      const w = this.waiting[i]!;
      if (match(w.item)) {
        removed.push(w.item);
        if (i < this.cursor) this.cursor--;
      } else {
        kept.push(w);
        weight += w.weight;
      }
    }
    if (removed.length === 0) return removed;
    this.waiting = kept;
    this.waitingWeight = weight;
    if (this.options.release !== 'manual') this.releaseHeld(removed.length);
    this.pump();
    return removed;
  }

  /** Cuts the waiting items into batches now, without waiting for them to fill. */
  flush(): void {
    this.throwIfFailed();
    this.urgent = true;
    this.pump();
  }

  /** No more items come: partial batches are cut at once from now on. */
  end(): void {
    this.ended = true;
    this.pump();
  }

  /** Drops the waiting items (re-queued batches included) and returns them, e.g. on cancel. */
  discard(): T[] {
    this.clearTimer();
    const dropped = [...this.priority.splice(0).flat(), ...this.waiting.map((w) => w.item)];
    const waitingCount = this.waiting.length;
    this.waiting = [];
    this.waitingWeight = 0;
    if (this.options.release !== 'manual') this.releaseHeld(waitingCount);
    this.notify();
    return dropped;
  }

  /** With `release: 'manual'`: `n` held items stop counting against `capacity`. */
  release(n = 1): void {
    this.releaseHeld(n);
  }

  /**
   * Resolves when the queue holds fewer than `capacity` items (at once when it does). While a
   * producer waits, partial batches are cut at once: they cannot fill any further. Rejects with the
   * signal's reason on abort.
   */
  room(signal?: AbortSignal): Promise<void> {
    const capacity = this.options.capacity ?? Number.POSITIVE_INFINITY;
    const ready = (): boolean => this.heldCount < capacity;
    if (!ready()) {
      this.urgent = true;
      this.pump();
    }
    return this.until(ready, signal);
  }

  /**
   * Resolves when nothing waits, runs or (with `release: 'manual'`) is held; rejects when a run
   * failed, or with the signal's reason on abort.
   */
  idle(signal?: AbortSignal): Promise<void> {
    return this.until(() => this.isIdle(), signal);
  }

  private isIdle(): boolean {
    return this.size === 0 && this.inFlightCount === 0 && (this.options.release !== 'manual' || this.heldCount === 0);
  }

  private until(ready: () => boolean, signal: AbortSignal | undefined): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (ready()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        this.waiters.delete(waiter);
        reject(abortReason(signal!));
      };
      const waiter: Waiter = { ready, resolve, reject, detach: () => signal?.removeEventListener('abort', onAbort) };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(waiter);
    });
  }

  private notify(): void {
    for (const w of [...this.waiters]) {
      if (!this.failure && !w.ready()) continue;
      this.waiters.delete(w);
      w.detach();
      if (this.failure) w.reject(this.failure.error);
      else w.resolve();
    }
  }

  private releaseHeld(n: number): void {
    this.heldCount = Math.max(0, this.heldCount - n);
    this.notify();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }

  private clearTimer(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  /**
   * Cuts what is due (`cutDue` false: full batches only); a pump called from inside a run's
   * callbacks is folded into the running one.
   */
  private pump(cutDue = true): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce(cutDue);
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
    this.notify();
  }

  private pumpOnce(cutDue: boolean): void {
    if (this.failure) return;
    const concurrency = this.options.concurrency ?? 1;
    while (this.inFlightCount < concurrency && this.priority.length > 0) this.start(this.priority.shift()!, false);
    const maxItems = this.options.maxItems ?? Number.POSITIVE_INFINITY;
    const maxWeight = this.options.maxWeight ?? Number.POSITIVE_INFINITY;
    const spread = this.options.spreadMinWeight;
    const limit =
      spread === undefined ? maxWeight : Math.min(maxWeight, Math.max(spread, Math.ceil(this.waitingWeight / Math.max(1, concurrency - this.inFlightCount))));
    while (this.inFlightCount < concurrency && this.waiting.length > 0) {
      const full = this.waiting.length >= maxItems || this.waitingWeight >= maxWeight;
      const flushMs = this.inFlightCount > 0 ? this.options.flushMs : (this.options.idleFlushMs ?? this.options.flushMs);
      const waited = this.scheduler.now() - this.waiting[0]!.at;
      if (!full && !this.urgent && !this.ended && (waited < flushMs || !cutDue)) {
        this.timer ??= this.scheduler.schedule(
          () => {
            this.timer = undefined;
            this.pump();
          },
          Math.max(0, flushMs - waited),
        );
        return;
      }
      const batch = this.cut(maxItems, limit);
      if (batch.length === 0) break;
      this.start(batch);
    }
    if (this.waiting.length === 0) {
      this.urgent = false;
      this.clearTimer();
    }
  }

  /** First come first served up to the limits, skipping busy keys; `admit` may drop or reweigh items. */
  private cut(maxItems: number, maxWeight: number): T[] {
    const batch: T[] = [];
    const keys = new Set<string>();
    let weight = 0;
    this.cursor = 0;
    while (this.cursor < this.waiting.length && batch.length < maxItems) {
      const w = this.waiting[this.cursor]!;
      const key = this.handlers.key?.(w.item);
      if (key !== undefined && (this.busyKeys.has(key) || keys.has(key))) {
        this.cursor++;
        continue;
      }
      if (this.handlers.admit) {
        const admitted = this.handlers.admit(w.item, w.weight);
        if (admitted === undefined) {
          // `admit` may have withdrawn the item (and others) itself; otherwise it goes here.
          if (this.waiting[this.cursor] === w) this.dropAt(this.cursor);
          continue;
        }
        this.waitingWeight += admitted - w.weight;
        w.weight = admitted;
      }
      if (batch.length > 0 && weight + w.weight > maxWeight) break;
      this.waiting.splice(this.cursor, 1);
      this.waitingWeight -= w.weight;
      batch.push(w.item);
      weight += w.weight;
      if (key !== undefined) keys.add(key);
    }
    for (const k of keys) this.busyKeys.add(k);
    return batch;
  }

  private dropAt(index: number): void {
    const [w] = this.waiting.splice(index, 1);
    this.waitingWeight -= w!.weight;
    if (this.options.release !== 'manual') this.releaseHeld(1);
  }

  /** Runs a batch; `held` is false for a re-queued batch, whose items were released when it first ran. */
  private start(batch: T[], held = true): void {
    this.inFlightCount++;
    let settled = false;
    const settle = (error?: { error: unknown }): void => {
      if (settled) return;
      settled = true;
      if (error && !this.failure) {
        this.failure = error;
        this.clearTimer();
      }
      this.inFlightCount--;
      if (this.handlers.key) for (const item of batch) this.busyKeys.delete(this.handlers.key(item));
      if (held && this.options.release !== 'manual') this.releaseHeld(batch.length);
      this.pump();
    };
    try {
      const running = this.handlers.run(batch);
      if (isPromiseLike(running))
        running.then(
          () => settle(),
          (error: unknown) => settle({ error }),
        );
      else running.subscribe({ error: (error: unknown) => settle({ error }), complete: () => settle() });
    } catch (error) {
      settle({ error });
    }
  }
}

function isPromiseLike(value: PromiseLike<unknown> | Subscribable<unknown>): value is PromiseLike<unknown> {
  return typeof (value as Partial<PromiseLike<unknown>>).then === 'function';
}
