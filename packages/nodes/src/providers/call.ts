import { backoffDelay, isQuarryError, QuarryError, type Logger } from '@quarry/core';
import { classifyError, isRetryable, requestIdOf, type Failure } from './classify-error.js';
import { providerError, redactSecrets, sanitizedCause, type ProviderErrorCode } from './errors.js';
import type { RateBudget } from './rate-limiter.js';
import { abortReason, linkSignals, systemClock, type Clock } from './sleep.js';

/** How a provider call is retried and timed out. Every SDK's own retries are switched off, so this is the only policy. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 5). */
  maxRetries: number;
  /** First backoff delay in ms (default 500); doubles per retry. */
  baseDelayMs: number;
  /** Cap of one backoff delay in ms (default 30 000). */
  maxDelayMs: number;
  /** A Retry-After longer than this (ms, default 120 000) fails at once instead of waiting. */
  maxRetryAfterMs: number;
  /** Time limit of one attempt in ms (default 60 000). */
  timeoutMs: number;
}

/** The defaults of {@link RetryPolicy}. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 5, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 120_000, timeoutMs: 60_000 };

/** Everything a provider call needs besides the request itself. */
export interface CallContext {
  provider: string;
  /** Values that must never appear in an error message (API keys, secrets, tokens). */
  secrets: ReadonlyArray<string | undefined>;
  limiter?: RateBudget;
  policy: RetryPolicy;
  clock?: Clock;
  /** Source of jitter in [0, 1) (tests make it deterministic). */
  random?: () => number;
  logger?: Logger;
}

/** One attempt's outcome: the value and the tokens the provider says it consumed. */
export interface AttemptResult<T> {
  value: T;
  tokens?: number;
}

/** Options of one {@link callProvider} call. */
export interface CallOptions {
  /** What is being done, for messages: `embeddings`, `chat`. */
  operation: string;
  model?: string;
  /** Tokens to spend on the key's budget before the call. */
  tokens: number;
  signal?: AbortSignal;
}

const KIND_CODE: Record<Failure['kind'], ProviderErrorCode> = {
  rate_limited: 'PROVIDER_RATE_LIMITED',
  server: 'PROVIDER_UNAVAILABLE',
  connection: 'PROVIDER_UNAVAILABLE',
  timeout: 'PROVIDER_TIMEOUT',
  auth: 'PROVIDER_AUTH',
  bad_request: 'PROVIDER_BAD_REQUEST',
  other: 'PROVIDER_ERROR',
};

const KIND_TEXT: Record<Failure['kind'], string> = {
  rate_limited: 'rate limited',
  server: 'server error',
  connection: 'could not connect',
  timeout: 'timed out',
  auth: 'credentials rejected',
  bad_request: 'request rejected',
  other: 'failed',
};

/** Exponential backoff with "equal jitter" under a retry policy. */
export function policyBackoff(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  return backoffDelay(retry, policy.baseDelayMs, policy.maxDelayMs, random);
}

function cancelled(signal: AbortSignal): QuarryError {
  return new QuarryError('JOB_ABORTED', 'provider call cancelled', { cause: abortReason(signal) });
}

/**
 * Runs one provider request under the shared policy: waits for the key's rate budget, bounds each
 * attempt by `timeoutMs`, retries 429, 5xx, 408, timeouts and dropped connections with exponential
 * backoff and jitter (waiting exactly what Retry-After asks when the provider says), pauses every
 * caller on the key after a 429, and turns the final failure into a coded, secret-free
 * {@link QuarryError}. Cancelling `signal` aborts the request in flight.
 */
export async function callProvider<T>(ctx: CallContext, opts: CallOptions, attempt: (signal: AbortSignal) => Promise<AttemptResult<T>>): Promise<T> {
  // Loaded with the first call: the nodes entry does not load RxJS, which the helper's timers run on.
  const { retrying, waitFor } = await import('@quarry/core/concurrency');
  const clock = ctx.clock ?? systemClock;
  const { policy } = ctx;
  const outer = opts.signal;
  const once = async (): Promise<T> => {
    if (outer?.aborted) throw cancelled(outer);
    await ctx.limiter?.acquire(opts.tokens, outer);
    const timeout = new AbortController();
    const timer = waitFor(policy.timeoutMs).subscribe(() => timeout.abort(new Error(`attempt timed out after ${policy.timeoutMs} ms`)));
    const link = linkSignals(outer, timeout.signal);
    try {
      const r = await attempt(link.signal);
      ctx.limiter?.settle(opts.tokens, r.tokens);
      return r.value;
    } catch (e) {
      if (outer?.aborted) throw cancelled(outer);
      // Our own coded errors (a malformed answer, say) are final and already secret-free.
      if (isQuarryError(e) && !timeout.signal.aborted) throw e;
      throw new AttemptFailed(timeout.signal.aborted ? { kind: 'timeout' } : classifyError(e, clock.now()), e);
    } finally {
      timer.unsubscribe();
      link.dispose();
    }
  };
  try {
    return await retrying(once, {
      retries: policy.maxRetries,
      baseDelayMs: policy.baseDelayMs,
      maxDelayMs: policy.maxDelayMs,
      maxRetryAfterMs: policy.maxRetryAfterMs,
      retryable: (e) => e instanceof AttemptFailed && isRetryable(e.failure),
      retryAfterMs: (e) => (e instanceof AttemptFailed ? e.failure.retryAfterMs : undefined),
      giveUp: (e, info) => (e instanceof AttemptFailed ? finalError(ctx, opts, e.failure, e.error, info.attempts, info.retryAfterTooLong) : e),
      onRetry: ({ error, retry, delayMs }) => {
        const { failure } = error as AttemptFailed;
        if (failure.kind === 'rate_limited') ctx.limiter?.pause(delayMs);
        ctx.logger?.warn('provider call failed; retrying', {
          provider: ctx.provider,
          operation: opts.operation,
          ...(failure.status ? { status: failure.status } : {}),
          kind: failure.kind,
          attempt: retry,
          delay_ms: delayMs,
        });
      },
      sleep: (ms, signal) => clock.sleep(ms, signal),
      ...(outer ? { signal: outer } : {}),
      ...(ctx.random ? { random: ctx.random } : {}),
    });
  } catch (e) {
    if (outer?.aborted) throw cancelled(outer);
    throw e;
  }
}

/** One attempt's failure, classified; the retry helper decides from it whether to try again. */
class AttemptFailed extends Error {
  constructor(
    readonly failure: Failure,
    readonly error: unknown,
  ) {
    super(`provider attempt failed (${failure.kind})`);
  }
}

function finalError(ctx: CallContext, opts: CallOptions, failure: Failure, error: unknown, attempts: number, tooLong: boolean): QuarryError {
  const status = failure.status ? `HTTP ${failure.status} ` : '';
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';
  const wait = tooLong
    ? ` (the provider asked to wait ${Math.round(failure.retryAfterMs! / 1000)} s, more than the ${Math.round(ctx.policy.maxRetryAfterMs / 1000)} s allowed)`
    : '';
  const raw = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const detail = raw ? `: ${redactSecrets(raw, ctx.secrets).slice(0, 400)}` : '';
  const model = opts.model ? ` (model ${opts.model})` : '';
  const requestId = requestIdOf(error);
  return providerError(
    KIND_CODE[failure.kind],
    `${ctx.provider} ${opts.operation}${model} ${status}${KIND_TEXT[failure.kind]}${after}${wait}${detail}`,
    {
      provider: ctx.provider,
      ...(opts.model ? { model: opts.model } : {}),
      ...(failure.status ? { status: failure.status } : {}),
      attempts,
      ...(requestId ? { request_id: requestId } : {}),
    },
    sanitizedCause(error, ctx.secrets),
  );
}
