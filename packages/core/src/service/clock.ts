/** An armed timer of a {@link Clock}. */
export interface TimerHandle {
  /** Disarms the timer; calling it after the timer fired does nothing. */
  clear(): void;
}

/**
 * Time as the service sees it: the current instant and one-shot timers. Injected so that tests (and
 * hosts that simulate time) can move time by hand; {@link systemClock} is the real one.
 */
export interface Clock {
  now(): Date;
  /** Calls `fn` once after `ms` milliseconds of this clock's time. */
  setTimer(fn: () => void, ms: number): TimerHandle;
}

// setTimeout overflows above 2^31-1 ms (about 24.8 days) and fires at once; longer waits re-arm.
const MAX_TIMEOUT_MS = 2_147_483_647;

/** The real clock: `Date` and `setTimeout` (long delays are chained, so monthly schedules work). */
export const systemClock: Clock = {
  now: () => new Date(),
  setTimer(fn, ms) {
    const due = Date.now() + Math.max(0, ms);
    let t: NodeJS.Timeout;
    const arm = (): void => {
      const left = due - Date.now();
      t = left > MAX_TIMEOUT_MS ? setTimeout(arm, MAX_TIMEOUT_MS) : setTimeout(fn, Math.max(0, left));
    };
    arm();
    return { clear: () => clearTimeout(t) };
  },
};

interface ManualTimer {
  due: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to: {@link ManualClock.advance} and {@link ManualClock.set}
 * fire every timer that falls due on the way, in order, each seeing `now()` at its own due time.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(new Date('2025-01-01T00:00:00Z'));
 * const service = await WorkflowService.open({ engine, store, dataDir, clock });
 * clock.advance(15 * 60_000); // a workflow scheduled "every 15 minutes" starts a job
 * ```
 */
export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private readonly timers = new Set<ManualTimer>();

  constructor(start: Date | string | number = Date.now()) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer: ManualTimer = { due: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.add(timer);
    return { clear: () => this.timers.delete(timer) };
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms: number): void {
    this.set(this.current + Math.max(0, ms));
  }

  /** Moves time to `to` (never backwards), firing due timers in order. */
  set(to: Date | string | number): void {
    const target = new Date(to).getTime();
    if (target < this.current) throw new RangeError('ManualClock cannot go backwards');
    for (;;) {
      let next: ManualTimer | undefined;
      for (const t of this.timers) if (t.due <= target && (!next || t.due < next.due || (t.due === next.due && t.seq < next.seq))) next = t;
      if (!next) break;
      this.timers.delete(next);
      this.current = Math.max(this.current, next.due);
      next.fn();
    }
    this.current = target;
  }

  /** Number of armed timers (for tests). */
  get pendingTimers(): number {
    return this.timers.size;
  }
}
