import { parseSettings } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { searchIndexConfig } from '../../src/search-index/config.js';

describe('searchIndexConfig', () => {
  it('accepts the SPEC.md connector create body config and applies defaults', () => {
    const r = parseSettings(searchIndexConfig, { hosts: ['https://x.es.io'], index_name: 'docs', search_api_key: 'ZW5j' });
    expect(r).toEqual({
      ok: true,
      value: {
        hosts: ['https://x.es.io'],
        index_name: 'docs',
        search_api_key: 'ZW5j',
        fields: [],
        batch_size: 100,
        batch_size_bytes: 15_000_000,
        num_threads: 4,
        max_retries: 6,
        retry_initial_ms: 500,
        retry_max_ms: 30_000,
        request_timeout_ms: 120_000,
      },
    });
  });

  it('wraps a single host string, as the reference does', () => {
    const r = parseSettings(searchIndexConfig, { hosts: 'localhost:9200', index_name: 'i' });
    expect(r.ok && r.value.hosts).toEqual(['localhost:9200']);
  });

  it('reports every problem with its path', () => {
    const r = parseSettings(searchIndexConfig, {
      index_name: '',
      api_key_id: 'id',
      username: 'u',
      bearer_auth: 't',
      password: 'p',
      ssl_assert_fingerprint: 'zz',
      extra: 1,
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['/index_name', '']));
    const messages = r.problems.map((p) => p.message).join(' | ');
    expect(messages).toMatch(/Unrecognized key/);
    expect(r.problems.length).toBeGreaterThanOrEqual(2);
  });

  it('rejects two authentication forms at once and an id without a key', () => {
    const two = parseSettings(searchIndexConfig, { hosts: ['h'], index_name: 'i', search_api_key: 'k', bearer_auth: 't' });
    expect(two.ok || two.problems.map((p) => p.message)).toEqual(['give one authentication form, not search_api_key and bearer_auth']);
    const id = parseSettings(searchIndexConfig, { hosts: ['h'], index_name: 'i', api_key_id: 'id' });
    expect(id.ok || id.problems).toEqual([{ path: '/api_key_id', message: 'api_key_id needs the key in search_api_key' }]);
    const none = parseSettings(searchIndexConfig, { index_name: 'i' });
    expect(none.ok || none.problems).toEqual([{ path: '/hosts', message: 'give hosts or cloud_id' }]);
    const fp = parseSettings(searchIndexConfig, { hosts: ['h'], index_name: 'i', ssl_assert_fingerprint: 'ab:cd' });
    expect(fp.ok || fp.problems[0]?.path).toBe('/ssl_assert_fingerprint');
  });
});
