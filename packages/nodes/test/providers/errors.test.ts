import { QuarryError } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { PROVIDER_ERROR_CODES, providerError, redactSecrets, sanitizedCause } from '../../src/providers/errors.js';

describe('provider errors', () => {
  it('every code is UPPER_SNAKE with a description, and providerError makes a QuarryError', () => {
    for (const [code, text] of Object.entries(PROVIDER_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)+$/);
      expect(text.length).toBeGreaterThan(10);
    }
    const e = providerError('PROVIDER_AUTH', 'nope', { provider: 'openai', status: 401 });
    expect(e).toBeInstanceOf(QuarryError);
    expect(e.toJSON()).toEqual({ code: 'PROVIDER_AUTH', message: 'nope', details: { provider: 'openai', status: 401 } });
  });

  it('redacts whole secrets and the partial forms vendors echo', () => {
    const key = 'sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345';
    const text = `bad key ${key}; you sent sk-proj-ABCD****2345 or ${key.slice(0, 10)}...${key.slice(-8)}`;
    const out = redactSecrets(text, [key, undefined]);
    expect(out).not.toContain(key);
    expect(out).not.toContain(key.slice(0, 10));
    expect(out).not.toContain(key.slice(-8));
    expect(out).toContain('[redacted]');
  });

  it('masks a short secret only where it appears whole', () => {
    expect(redactSecrets('key abc in abcdef', ['abc'])).toBe('key [redacted] in [redacted]def');
  });

  it('sanitizedCause keeps the name and a redacted message, nothing else', () => {
    const original = Object.assign(new Error('failed for token t0k3n-0123456789abcdef'), {
      name: 'APIError',
      headers: { authorization: 'Bearer t0k3n-0123456789abcdef' },
    });
    const c = sanitizedCause(original, ['t0k3n-0123456789abcdef']);
    expect(c.name).toBe('APIError');
    expect(c.message).toBe('failed for token [redacted]');
    expect(JSON.stringify(c)).not.toContain('t0k3n');
    expect(Object.keys(c).filter((k) => k !== 'name')).toEqual([]);
  });
});
