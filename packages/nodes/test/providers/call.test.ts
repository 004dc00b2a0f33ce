import { isQuarryError } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { callProvider, policyBackoff, DEFAULT_RETRY_POLICY, type CallContext } from '../../src/providers/call.js';
import { providerError } from '../../src/providers/errors.js';
import { RateLimiter } from '../../src/providers/rate-limiter.js';
import { recordingClock } from '../support/recording-clock.js';
import { caught } from '../support/caught.js';

function context(over: Partial<CallContext> = {}): CallContext & { sleeps: number[] } {
  const { clock, sleeps } = recordingClock();
  return {
    provider: 'test',
    secrets: ['s3cr3t-key-0123456789'],
    policy: { ...DEFAULT_RETRY_POLICY, ...over.policy },
    clock,
    random: () => 0.5,
    sleeps,
    ...over,
  };
}

describe('callProvider', () => {
  it('caps each backoff delay at maxDelayMs', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1000, maxDelayMs: 5000 };
    expect([0, 1, 2, 3, 4].map((n) => policyBackoff(n, policy, () => 1))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(policyBackoff(3, policy, () => 0)).toBe(2500);
  });

  it('passes its own coded errors through at once, unretried', async () => {
    const ctx = context();
    let attempts = 0;
    const e = await caught(
      callProvider(ctx, { operation: 'embeddings', tokens: 0 }, async () => {
        attempts++;
        throw providerError('PROVIDER_ERROR', 'malformed answer');
      }),
    );
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_ERROR');
    expect(attempts).toBe(1);
  });

  it('retries dropped connections, then reports PROVIDER_UNAVAILABLE with the attempt count', async () => {
    const ctx = context({ policy: { ...DEFAULT_RETRY_POLICY, maxRetries: 2 } });
    const e = await caught(
      callProvider(ctx, { operation: 'chat', model: 'm', tokens: 0 }, async () => {
        throw Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
      }),
    );
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_UNAVAILABLE');
    expect((e as Error).message).toBe('test chat (model m) could not connect after 3 attempts: fetch failed');
    expect(isQuarryError(e) && e.details).toEqual({ provider: 'test', model: 'm', attempts: 3 });
    expect(ctx.sleeps).toHaveLength(2);
  });

  it('spends the estimated tokens before the call and settles with the reported usage', async () => {
    const { clock, sleeps } = recordingClock();
    const limiter = new RateLimiter({ tokensPerMinute: 1000 }, clock);
    const ctx = context({ limiter, clock });
    await callProvider(ctx, { operation: 'embeddings', tokens: 900 }, async () => ({ value: 1, tokens: 100 }));
    // 800 were given back: another 900-token call fits at once.
    await callProvider(ctx, { operation: 'embeddings', tokens: 900 }, async () => ({ value: 2, tokens: 900 }));
    expect(sleeps).toEqual([]);
  });

  it('a cancel while waiting for the rate budget ends the call with JOB_ABORTED', async () => {
    const limiter = new RateLimiter({ requestsPerMinute: 1 });
    await limiter.acquire();
    const controller = new AbortController();
    const pending = caught(
      callProvider(context({ limiter, clock: undefined }), { operation: 'embeddings', tokens: 0, signal: controller.signal }, async () => ({ value: 1 })),
    );
    controller.abort(new Error('stop'));
    const e = await pending;
    expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
  });
});
