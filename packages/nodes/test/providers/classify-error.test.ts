import { describe, expect, it } from 'vitest';
import { classifyError, isRetryable } from '../../src/providers/classify-error.js';

describe('classifyError', () => {
  it('reads status and Retry-After from Stainless SDK errors (openai, anthropic)', () => {
    const e = Object.assign(new Error('429 slow down'), { status: 429, headers: new Headers({ 'retry-after': '7' }) });
    expect(classifyError(e)).toEqual({ kind: 'rate_limited', status: 429, retryAfterMs: 7000 });
  });

  it('reads AWS SDK errors ($metadata, $response headers)', () => {
    const e = Object.assign(new Error('Too many'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 429 },
      $response: { headers: { 'retry-after': '2' } },
    });
    expect(classifyError(e)).toEqual({ kind: 'rate_limited', status: 429, retryAfterMs: 2000 });
    expect(classifyError(Object.assign(new Error('x'), { name: 'ThrottlingException' })).kind).toBe('rate_limited');
  });

  it('reads Google RetryInfo from the error body', () => {
    const e = Object.assign(new Error('{"error":{"code":429,"details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"12.5s"}]}}'), {
      status: 429,
    });
    expect(classifyError(e)).toEqual({ kind: 'rate_limited', status: 429, retryAfterMs: 12_500 });
  });

  it('classifies statuses and connection failures', () => {
    const s = (status: number) => classifyError(Object.assign(new Error('x'), { status })).kind;
    expect([s(500), s(503), s(529), s(408), s(401), s(403), s(400), s(404), s(413), s(422), s(409)]).toEqual([
      'server',
      'server',
      'server',
      'timeout',
      'auth',
      'auth',
      'bad_request',
      'bad_request',
      'bad_request',
      'bad_request',
      'other',
    ]);
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    expect(classifyError(refused).kind).toBe('connection');
    expect(classifyError('boom').kind).toBe('other');
  });

  it('retries only what may succeed later', () => {
    expect((['rate_limited', 'server', 'connection', 'timeout'] as const).every((kind) => isRetryable({ kind }))).toBe(true);
    expect((['auth', 'bad_request', 'other'] as const).some((kind) => isRetryable({ kind }))).toBe(false);
  });
});
