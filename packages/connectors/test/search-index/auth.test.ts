import { describe, expect, it } from 'vitest';
import { encodeApiKey, redact, resolveAuth, secretsOf } from '../../src/search-index/auth.js';
import { searchIndexConfig } from '../../src/search-index/config.js';

const parse = (c: Record<string, unknown>) => searchIndexConfig.parse({ hosts: ['http://h:9200'], index_name: 'i', ...c });

describe('encodeApiKey', () => {
  it('is Base64 of the UTF-8 text "id:key", as POST /_security/api_key returns it as "encoded"', () => {
    // The example of the Elasticsearch create-API-key documentation.
    expect(encodeApiKey('VuaCfGcBCdbkQm-e5aOx', 'ui2lp2axTNmsyakw9tvNnw')).toBe('VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==');
  });
});

describe('resolveAuth', () => {
  it('uses an Encoded API key as given', () => {
    expect(resolveAuth(parse({ search_api_key: 'ZW5jb2RlZA==' }))).toMatchObject({ form: 'api_key', auth: { apiKey: 'ZW5jb2RlZA==' } });
    expect(resolveAuth(parse({ es_api_key: 'ZW5jb2RlZA==' }))).toMatchObject({ form: 'api_key', auth: { apiKey: 'ZW5jb2RlZA==' } });
  });

  it('encodes an id and key pair for the user', () => {
    const r = resolveAuth(parse({ api_key_id: 'abc', search_api_key: 'the-key' }));
    expect(r).toMatchObject({ form: 'api_key_id', auth: { apiKey: encodeApiKey('abc', 'the-key') } });
    expect(r.description).toBe('API key id "abc"');
  });

  it('uses basic authentication, with user elastic when only a password is given', () => {
    expect(resolveAuth(parse({ username: 'ingest', password: 'pw' }))).toMatchObject({ form: 'basic', auth: { username: 'ingest', password: 'pw' } });
    expect(resolveAuth(parse({ cloud_id: 'x:eA==', password: 'pw' }))).toMatchObject({ form: 'basic', auth: { username: 'elastic', password: 'pw' } });
  });

  it('uses a bearer token, or nothing', () => {
    expect(resolveAuth(parse({ bearer_auth: 'tok' }))).toMatchObject({ form: 'bearer', auth: { bearer: 'tok' } });
    expect(resolveAuth(parse({}))).toMatchObject({ form: 'none', auth: undefined });
  });

  it('never puts a secret in the description', () => {
    for (const c of [
      { search_api_key: 'SECRET-1' },
      { api_key_id: 'id', search_api_key: 'SECRET-1' },
      { username: 'u', password: 'SECRET-1' },
      { bearer_auth: 'SECRET-1' },
    ]) {
      expect(resolveAuth(parse(c)).description).not.toContain('SECRET-1');
    }
  });
});

describe('redact', () => {
  it('scrubs every secret of a config, the encoded pair included', () => {
    const config = parse({ api_key_id: 'id', search_api_key: 'key-secret' });
    const text = `bad key key-secret or ${encodeApiKey('id', 'key-secret')}`;
    expect(redact(text, secretsOf(config))).toBe('bad key *** or ***');
  });
});
