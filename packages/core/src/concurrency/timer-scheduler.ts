/** A timer a {@link TimerScheduler} armed: unsubscribing clears it. */
export interface ScheduledTimer {
  unsubscribe(): void;
}

/**
 * Where a queue's timers run and what time it is. rxjs' schedulers fit it as they are (a
 * `TestScheduler` runs the timers in virtual time in marble tests), and so does {@link timers},
 * which loads no rxjs: code on the way of `quarry partition` uses the queue without it.
 */
export interface TimerScheduler {
  /** The time now, in milliseconds. */
  now(): number;
  /** Runs `work` once after `delay` ms (default 0). */
  schedule(work: () => void, delay?: number): ScheduledTimer;
}

/** How {@link timers} arms its timers. */
export interface TimersOptions {
  /**
   * Whether an armed timer keeps the process alive (default true, like rxjs' `asyncScheduler`).
   * False for housekeeping, such as ending a pooled worker that sat idle.
   */
  keepAlive?: boolean;
}

/**
 * The real clock: `Date.now()` and `setTimeout`, as rxjs' `asyncScheduler` has them, without
 * loading rxjs.
 */
export function timers(options: TimersOptions = {}): TimerScheduler {
  const keepAlive = options.keepAlive ?? true;
  return {
    now: () => Date.now(),
    schedule(work, delay = 0) {
      const timer = setTimeout(work, Math.max(0, delay));
      if (!keepAlive) timer.unref();
      return { unsubscribe: () => clearTimeout(timer) };
    },
  };
}
