import { abortReason, sleep } from '@quarry/core';

export { abortReason, sleep };

/** A clock the rate limiter and retry policy use; tests pass a fake one. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now(), sleep };

/**
 * A signal that aborts when any of `signals` does, with a `dispose` that detaches it again.
 * Used per attempt instead of `AbortSignal.any`, whose listeners on a long-lived job signal are
 * only released by garbage collection.
 */
export function linkSignals(...signals: Array<AbortSignal | undefined>): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const detach: Array<() => void> = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    const onAbort = (): void => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    detach.push(() => s.removeEventListener('abort', onAbort));
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const d of detach) d();
    },
  };
}
