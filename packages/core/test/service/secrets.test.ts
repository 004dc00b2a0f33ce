import { describe, expect, it } from 'vitest';
import { SECRET_MASK, collectSecrets, isSecretKey, maskSecrets, restoreMaskedSecrets, scrubSecrets, scrubValue } from '../../src/service/index.js';

const config = {
  hosts: ['https://cluster.example:9243'],
  index_name: 'docs',
  search_api_key: 'c2VhcmNoLWtleS0xMjM0',
  username: 'elastic',
  password: 'hunter2-password',
  bearer_auth: null,
  nested: { auth: { token: 'tok-987654321' }, list: [{ api_key: 'list-key-5555' }] },
};

describe('secrets', () => {
  it('recognises secret keys', () => {
    for (const k of ['search_api_key', 'api_key', 'api_key_id', 'password', 'bearer_auth', 'client_secret', 'token', 'provider_api_key', 'unstructured_api_key']) expect(isSecretKey(k)).toBe(true);
    for (const k of ['hosts', 'index_name', 'username', 'path', 'ca_certs', 'model_name']) expect(isSecretKey(k)).toBe(false);
  });

  it('masks every secret value at any depth and keeps nulls and the rest', () => {
    expect(maskSecrets(config)).toEqual({
      hosts: ['https://cluster.example:9243'],
      index_name: 'docs',
      search_api_key: SECRET_MASK,
      username: 'elastic',
      password: SECRET_MASK,
      bearer_auth: null,
      nested: { auth: SECRET_MASK, list: [{ api_key: SECRET_MASK }] },
    });
    expect(config.password).toBe('hunter2-password');
  });

  it('restores masked values sent back, and takes new ones', () => {
    const sent = { ...maskSecrets(config), index_name: 'docs-2', password: 'new-password' };
    expect(restoreMaskedSecrets(sent, config)).toEqual({ ...config, index_name: 'docs-2', password: 'new-password' });
    // A mask for a secret that was never stored stays a literal value (the connector schema judges it).
    expect(restoreMaskedSecrets({ api_key: SECRET_MASK }, {})).toEqual({ api_key: SECRET_MASK });
  });

  it('collects secret strings and scrubs them, plain or Base64', () => {
    const secrets = collectSecrets(config);
    expect(secrets.sort()).toEqual(['c2VhcmNoLWtleS0xMjM0', 'hunter2-password', 'list-key-5555', 'tok-987654321'].sort());
    const b64 = Buffer.from('hunter2-password').toString('base64');
    expect(scrubSecrets(`auth failed with hunter2-password (${b64})`, secrets)).toBe(`auth failed with ${SECRET_MASK} (${SECRET_MASK})`);
    expect(scrubValue({ error: new Error('key tok-987654321 refused'), n: 1, list: ['list-key-5555'] }, secrets)).toEqual({ error: `key ${SECRET_MASK} refused`, n: 1, list: [SECRET_MASK] });
  });
});
