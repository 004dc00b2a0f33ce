/**
 * Marble tests of the retry helper, in virtual time: each attempt is a cold marble (`#` a failure),
 * the expected marble shows when the value (or the final error) comes out. Jitter is fixed with
 * `random: () => 0`, so a backoff of base·2^n waits half of it. One frame is one millisecond.
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { retrying, retryWithBackoff, type RetryOptions } from '../../src/concurrency/retry.js';
import { wait } from '../../src/concurrency/wait.js';

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(`HTTP ${status}`);
  }
}

const base: RetryOptions = {
  retries: 3,
  baseDelayMs: 10,
  maxDelayMs: 1000,
  random: () => 0,
  retryable: (e) => e instanceof HttpError && (e.status === 429 || e.status >= 500),
  retryAfterMs: (e) => (e instanceof HttpError ? e.retryAfterMs : undefined),
};

describe('retryWithBackoff in virtual time', () => {
  it('waits an exponential backoff between attempts, then gives the value', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const attempts = [cold('-#', undefined, new HttpError(503)), cold('-#', undefined, new HttpError(500)), cold('-a|')];
      const out = retryWithBackoff((n) => attempts[n]!, { ...base, scheduler: ts });
      // fails at 1, waits 5; fails at 7, waits 10; the third attempt answers at 18.
      expectObservable(out).toBe('18ms a|');
    });
  });

  it('waits exactly what Retry-After asks for', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const attempts = [cold('-#', undefined, new HttpError(429, 30)), cold('-a|')];
      const out = retryWithBackoff((n) => attempts[n]!, { ...base, scheduler: ts });
      expectObservable(out).toBe('32ms a|');
    });
  });

  it('gives up at once on a failure not worth repeating, through giveUp', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const out = retryWithBackoff(() => cold('--#', undefined, new HttpError(400)), {
        ...base,
        scheduler: ts,
        giveUp: (e, info) => new Error(`${(e as Error).message} after ${info.attempts} attempts`),
      });
      expectObservable(out).toBe('--#', undefined, new Error('HTTP 400 after 1 attempts'));
    });
  });

  it('gives up after the last retry, and at once when Retry-After is too long', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const out = retryWithBackoff(() => cold('-#', undefined, new HttpError(502)), {
        ...base,
        retries: 2,
        scheduler: ts,
        giveUp: (_e, info) => new Error(`gave up after ${info.attempts}`),
      });
      // fails at 1, waits 5; fails at 7, waits 10; fails at 18 for good.
      expectObservable(out).toBe('18ms #', undefined, new Error('gave up after 3'));
    });
    scheduler().run(({ cold, expectObservable }) => {
      const out = retryWithBackoff(() => cold('-#', undefined, new HttpError(429, 5000)), {
        ...base,
        maxRetryAfterMs: 1000,
        giveUp: (_e, info) => new Error(`too long: ${info.retryAfterTooLong}`),
      });
      expectObservable(out).toBe('-#', undefined, new Error('too long: true'));
    });
  });

  it('stops waiting as soon as the signal aborts, with its reason', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const controller = new AbortController();
      ts.schedule(() => controller.abort(new Error('cancelled')), 3);
      const out = retryWithBackoff(() => cold('-#', undefined, new HttpError(503)), { ...base, scheduler: ts, signal: controller.signal });
      expectObservable(out).toBe('---#', undefined, new Error('cancelled'));
    });
  });

  it('tells onRetry each retry and its delay before waiting', () => {
    const ts = scheduler();
    const seen: string[] = [];
    ts.run(({ cold, expectObservable }) => {
      const attempts = [cold('-#', undefined, new HttpError(503)), cold('-#', undefined, new HttpError(429, 7)), cold('a|')];
      const out = retryWithBackoff((n) => attempts[n]!, { ...base, scheduler: ts, onRetry: (e) => seen.push(`${e.retry}:${e.delayMs}`) });
      expectObservable(out).toBe('14ms a|');
    });
    expect(seen).toEqual(['1:5', '2:7']);
  });
});

describe('retrying (promises, real time)', () => {
  it('retries a rejected promise and resolves with the answer', async () => {
    let calls = 0;
    const value = await retrying(
      async () => {
        if (calls++ < 2) throw new HttpError(503);
        return 'ok';
      },
      { ...base, baseDelayMs: 1 },
    );
    expect([value, calls]).toEqual(['ok', 3]);
  });

  it('uses an injected sleep instead of the scheduler, and stops when it rejects on abort', async () => {
    const sleeps: number[] = [];
    const controller = new AbortController();
    const sleep = async (ms: number): Promise<void> => {
      sleeps.push(ms);
      controller.abort(new Error('stop'));
      throw new Error('stop');
    };
    await expect(retrying(async () => Promise.reject(new HttpError(500)), { ...base, sleep, signal: controller.signal })).rejects.toThrow('stop');
    expect(sleeps).toEqual([5]);
  });

  it('wait() resolves after its delay and rejects at once on abort', async () => {
    await wait(1);
    const controller = new AbortController();
    const pending = wait(60_000, { signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });
});
