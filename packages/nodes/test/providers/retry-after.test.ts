import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryAfterFromHeaders } from '../../src/providers/retry-after.js';

const NOW = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');

describe('parseRetryAfter', () => {
  it('reads delay-seconds, including fractions', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter(' 1.5 ', NOW)).toBe(1500);
  });

  it('reads the three HTTP date formats of RFC 9110', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Wednesday, 21-Oct-15 07:28:10 GMT', NOW)).toBe(10_000);
    expect(parseRetryAfter('Wed Oct 21 07:28:05 2015', NOW - new Date(NOW).getTimezoneOffset() * 60_000)).toBe(5_000);
  });

  it('never returns a negative wait for a date in the past', () => {
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores absent and unreadable values', () => {
    for (const v of [undefined, null, '', 'soon', '-5', '12abc', '1e3']) expect(parseRetryAfter(v, NOW)).toBeUndefined();
  });
});

describe('retryAfterFromHeaders', () => {
  it('prefers retry-after-ms and reads fetch Headers or plain records, any case', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), NOW)).toBe(250);
    expect(retryAfterFromHeaders({ 'Retry-After': '2' }, NOW)).toBe(2000);
    expect(retryAfterFromHeaders({ 'retry-after': ['3'] }, NOW)).toBe(3000);
    expect(retryAfterFromHeaders(undefined, NOW)).toBeUndefined();
  });
});
