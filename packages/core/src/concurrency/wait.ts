import { asyncScheduler, Observable, type SchedulerLike } from 'rxjs';
import { abortReason } from '../runtime/sleep.js';

/** Where and how long a {@link wait} waits. */
export interface WaitOptions {
  /** Rejects the wait with the signal's reason as soon as it aborts. */
  signal?: AbortSignal;
  /** Where the timer runs (default rxjs' `asyncScheduler`; tests pass a `TestScheduler`). */
  scheduler?: SchedulerLike;
}

/**
 * Emits once after `ms` on the scheduler, then completes; errors with the signal's reason as soon as
 * it aborts (the timer is cleared); unsubscribing clears it too. Like rxjs' `timer`, with a
 * signal.
 */
export function waitFor(ms: number, options: WaitOptions = {}): Observable<void> {
  const { signal, scheduler = asyncScheduler } = options;
  return new Observable<void>((sub) => {
    if (signal?.aborted) {
      sub.error(abortReason(signal));
      return;
    }
    const onAbort = (): void => sub.error(abortReason(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = scheduler.schedule(
      () => {
        sub.next();
        sub.complete();
      },
      Math.max(0, ms),
    );
    return () => {
      timer.unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
  });
}

/** {@link waitFor} as a promise: resolves after `ms`, rejects with the signal's reason on abort. */
export function wait(ms: number, options: WaitOptions = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    waitFor(ms, options).subscribe({ complete: resolve, error: reject });
  });
}
