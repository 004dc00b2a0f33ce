import { describe, expect, it } from 'vitest';
import { SECRET_MASK, collectSecrets, isSecretKey, maskSecrets, restoreMaskedSecrets, scrubSecrets, scrubValue } from '../../src/service/secrets.js';
import { maskUrlPasswords, urlCredentials } from '../../src/service/url-credentials.js';

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
    for (const k of [
      'search_api_key',
      'api_key',
      'api_key_id',
      'password',
      'bearer_auth',
      'client_secret',
      'token',
      'provider_api_key',
      'unstructured_api_key',
    ])
      expect(isSecretKey(k)).toBe(true);
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
    expect(scrubValue({ error: new Error('key tok-987654321 refused'), n: 1, list: ['list-key-5555'] }, secrets)).toEqual({
      error: `key ${SECRET_MASK} refused`,
      n: 1,
      list: [SECRET_MASK],
    });
  });

  describe('passwords in URLs', () => {
    const withUrls = {
      hosts: ['https://elastic:s3cr%40t-pass@es-1.example:9200', 'https://es-2.example:9200', 'elastic:bare-pass-77@es-3.example:9200'],
      nested: { endpoint: 'see http://svc:tok-in-url-42@api.example/v1?x=1 for details', user_only: 'https://someone@host.example' },
      index_name: 'docs',
    };

    it('finds each URL password, the userinfo ending at the last @ of the authority', () => {
      expect(urlCredentials('a https://u:p@ss@h.example:1/x?y "ftp://x:y@Z" https://n@h')).toEqual([
        { scheme: 'https:', user: 'u', password: 'p@ss', host: 'h.example:1', start: 12, end: 16 },
        { scheme: 'ftp:', user: 'x', password: 'y', host: 'z"', start: 42, end: 43 },
      ]);
    });

    it('masks the password of every URL in any string, the bare user:password@host form too', () => {
      expect(maskSecrets(withUrls)).toEqual({
        hosts: [`https://elastic:${SECRET_MASK}@es-1.example:9200`, 'https://es-2.example:9200', `elastic:${SECRET_MASK}@es-3.example:9200`],
        nested: { endpoint: `see http://svc:${SECRET_MASK}@api.example/v1?x=1 for details`, user_only: 'https://someone@host.example' },
        index_name: 'docs',
      });
    });

    it('restores a masked URL password from the same scheme, user and host only', () => {
      const masked = maskSecrets(withUrls) as typeof withUrls;
      expect(restoreMaskedSecrets(masked, withUrls)).toEqual(withUrls);
      // Reordered hosts keep their passwords; a masked password sent to another host stays a mask.
      const moved = { ...masked, hosts: [masked.hosts[2]!, masked.hosts[0]!, `https://elastic:${SECRET_MASK}@evil.example:9200`] };
      expect(restoreMaskedSecrets(moved, withUrls).hosts).toEqual([withUrls.hosts[2], withUrls.hosts[0], `https://elastic:${SECRET_MASK}@evil.example:9200`]);
      // A new password is taken as sent.
      expect(restoreMaskedSecrets({ hosts: ['https://elastic:brand-new@es-1.example:9200'] }, withUrls).hosts).toEqual([
        'https://elastic:brand-new@es-1.example:9200',
      ]);
    });

    it('collects URL passwords (as written, decoded, and the user:password pair) and scrubs them anywhere', () => {
      const secrets = collectSecrets(withUrls);
      expect(secrets.sort()).toEqual(
        ['bare-pass-77', 'elastic:bare-pass-77', 'elastic:s3cr@t-pass', 's3cr%40t-pass', 's3cr@t-pass', 'svc:tok-in-url-42', 'tok-in-url-42'].sort(),
      );
      const basic = Buffer.from('elastic:s3cr@t-pass').toString('base64');
      expect(scrubSecrets(`401 from es-1 (Authorization: Basic ${basic}); password s3cr@t-pass refused`, secrets)).toBe(
        `401 from es-1 (Authorization: Basic ${SECRET_MASK}); password ${SECRET_MASK} refused`,
      );
    });

    it('masks URL passwords in any text, known or not, however short', () => {
      expect(maskUrlPasswords('GET https://u:pw@h:9200/_bulk failed', SECRET_MASK)).toBe(`GET https://u:${SECRET_MASK}@h:9200/_bulk failed`);
      expect(scrubSecrets('connecting to http://a:b@h', [])).toBe(`connecting to http://a:${SECRET_MASK}@h`);
      expect(scrubValue({ list: ['http://a:bc@h'], error: new Error('at http://x:yz@h') }, [])).toEqual({
        list: [`http://a:${SECRET_MASK}@h`],
        error: `at http://x:${SECRET_MASK}@h`,
      });
      expect(maskUrlPasswords('mail me: a@b.example, https://host.example/@user', SECRET_MASK)).toBe('mail me: a@b.example, https://host.example/@user');
    });
  });
});
