import { catchError, defer, from, lastValueFrom, type Observable, type ObservableInput, retry, type SchedulerLike, throwError } from 'rxjs';
import { abortReason, backoffDelay } from '../runtime/sleep.js';
import { waitFor } from './wait.js';

/** What the helper tells `giveUp` about the last failure. */
export interface RetryGiveUp {
  /** Attempts made, the first included. */
  attempts: number;
  /** True when the server asked to wait longer than `maxRetryAfterMs`. */
  retryAfterTooLong: boolean;
}

/** What the helper tells `onRetry` before it waits. */
export interface RetryEvent {
  error: unknown;
  /** The retry about to be made, from 1. */
  retry: number;
  delayMs: number;
}

/** How {@link retryWithBackoff} retries. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff delay in ms; it doubles per retry, with jitter. */
  baseDelayMs: number;
  /** Cap of one backoff delay in ms. */
  maxDelayMs: number;
  /** True for a failure worth another attempt (default: every failure). */
  retryable?: (error: unknown) => boolean;
  /** The wait the server asked for (an HTTP `Retry-After`), used instead of the backoff. */
  retryAfterMs?: (error: unknown) => number | undefined;
  /** A server wait longer than this (ms) gives up at once instead (default: no limit). */
  maxRetryAfterMs?: number;
  /** Turns the last failure into the error thrown (default: the failure itself). */
  giveUp?: (error: unknown, info: RetryGiveUp) => unknown;
  /** Called before each wait, e.g. to log or to pause other callers after a 429. */
  onRetry?: (event: RetryEvent) => void;
  /** Cancels: a wait stops at once, and the helper fails with the signal's reason. */
  signal?: AbortSignal;
  /** Where the waits run (default rxjs' `asyncScheduler`; tests pass a `TestScheduler`). */
  scheduler?: SchedulerLike;
  /** A clock's sleep to wait with instead of the scheduler (it must reject when `signal` aborts). */
  sleep?: (ms: number, signal?: AbortSignal) => PromiseLike<void>;
  /** Source of jitter in [0, 1) (default `Math.random`). */
  random?: () => number;
}

/**
 * Runs `attempt` (given the attempt number, from 0) and runs it again after a failure worth
 * repeating: after exactly the wait the server asked for (`Retry-After`) when it says, otherwise
 * after an exponential backoff with "equal jitter" (doubling from `baseDelayMs` up to `maxDelayMs`,
 * half fixed, half random, so that callers retrying together spread out). Waits run on an injected
 * scheduler or clock and stop as soon as `signal` aborts. Built on rxjs' `retry` with a `delay`.
 */
export function retryWithBackoff<T>(attempt: (n: number) => ObservableInput<T>, options: RetryOptions): Observable<T> {
  const { signal } = options;
  const tooLong = (error: unknown): boolean => {
    const after = options.retryAfterMs?.(error);
    return after !== undefined && options.maxRetryAfterMs !== undefined && after > options.maxRetryAfterMs;
  };
  return defer(() => {
    let n = 0;
    return defer(() => attempt(n++)).pipe(
      retry({
        count: options.retries,
        delay: (error: unknown, retryCount: number) => {
          if (signal?.aborted || (options.retryable && !options.retryable(error)) || tooLong(error)) return throwError(() => error);
          const delayMs = options.retryAfterMs?.(error) ?? backoffDelay(retryCount - 1, options.baseDelayMs, options.maxDelayMs, options.random);
          options.onRetry?.({ error, retry: retryCount, delayMs });
          return options.sleep
            ? from(options.sleep(delayMs, signal))
            : waitFor(delayMs, { ...(signal ? { signal } : {}), ...(options.scheduler ? { scheduler: options.scheduler } : {}) });
        },
      }),
      catchError((error: unknown) => {
        if (signal?.aborted) return throwError(() => abortReason(signal));
        const final = options.giveUp ? options.giveUp(error, { attempts: n, retryAfterTooLong: tooLong(error) }) : error;
        return throwError(() => final);
      }),
    );
  });
}

/** {@link retryWithBackoff} for a promise-returning attempt: resolves with its value. */
export function retrying<T>(attempt: (n: number) => PromiseLike<T>, options: RetryOptions): Promise<T> {
  return lastValueFrom(retryWithBackoff((n) => from(attempt(n)), options));
}
