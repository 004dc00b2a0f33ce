import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeApiKey } from '../../src/search-index/auth.js';
import { checkConnection, clientOptions, cloudIdUrl, createSearchClient, normalizeHost } from '../../src/search-index/client.js';
import { searchIndexConfig } from '../../src/search-index/config.js';
import { FakeElasticsearch } from '../support/fake-elasticsearch.js';
import { failureOf, makeTempDir, removeDir } from '../support.js';

const API_KEY = encodeApiKey('key-id', 'key-secret-value');
const credentials = { apiKeys: [API_KEY], users: { ingest: 'pass-secret-value' }, bearerTokens: ['bearer-secret-value'] };

async function connect(config: Record<string, unknown>): Promise<void> {
  const sc = await createSearchClient(searchIndexConfig.parse({ index_name: 'i', request_timeout_ms: 5000, ...config }));
  try {
    await checkConnection(sc);
  } finally {
    await sc.client.close();
  }
}

describe('search client: authentication forms', () => {
  let es: FakeElasticsearch;
  beforeAll(async () => {
    es = await new FakeElasticsearch({ credentials }).start();
  });
  afterAll(async () => es.stop());

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an Encoded API key', { search_api_key: API_KEY }, 'ApiKey'],
    ['an id and key pair, encoded for the user', { api_key_id: 'key-id', search_api_key: 'key-secret-value' }, 'ApiKey'],
    ['username and password', { username: 'ingest', password: 'pass-secret-value' }, 'Basic'],
    ['a bearer token', { bearer_auth: 'bearer-secret-value' }, 'Bearer'],
  ];
  for (const [what, config, scheme] of cases) {
    it(`connects with ${what}`, async () => {
      const before = es.requests.length;
      await connect({ hosts: [es.url], ...config });
      expect(es.requests.slice(before).map((r) => r.authScheme)).toEqual([scheme]);
    });
  }

  const wrong: Array<[Record<string, unknown>, string, string]> = [
    [{ search_api_key: encodeApiKey('key-id', 'wrong-secret-xyz') }, 'api_key', encodeApiKey('key-id', 'wrong-secret-xyz')],
    [{ api_key_id: 'key-id', search_api_key: 'wrong-secret-xyz' }, 'api_key_id', 'wrong-secret-xyz'],
    [{ username: 'ingest', password: 'wrong-secret-xyz' }, 'basic', 'wrong-secret-xyz'],
    [{ bearer_auth: 'wrong-secret-xyz' }, 'bearer', 'wrong-secret-xyz'],
    [{}, 'none', '\u0000'],
  ];
  for (const [config, form, secret] of wrong) {
    it(`names the auth form "${form}" and never the secret when the cluster rejects it`, async () => {
      const e = await failureOf(connect({ hosts: [es.url], ...config }));
      expect(e.code).toBe('SEARCH_INDEX_AUTH_FAILED');
      expect(e.message).toContain(`auth form ${form}`);
      expect(e.message).toContain('security_exception');
      expect(JSON.stringify({ m: e.message, d: e.details })).not.toContain(secret);
      expect(e.details).toMatchObject({ auth_form: form, status: 401 });
    });
  }

  it('connects with credentials in a host URL, and never shows their password', async () => {
    const withUserinfo = (user: string, password: string): string => es.url.replace('://', `://${user}:${encodeURIComponent(password)}@`);
    await connect({ hosts: [withUserinfo('ingest', 'pass-secret-value')] });
    const e = await failureOf(connect({ hosts: [withUserinfo('ingest', 'wrong-url-pass/9')] }));
    expect(e.code).toBe('SEARCH_INDEX_AUTH_FAILED');
    expect(e.message).toContain(
      `${withUserinfo('ingest', 'x').replace(':x@', ':********@')}: the cluster rejected authentication with user "ingest" and password in the host URL (auth form basic, HTTP 401)`,
    );
    expect(JSON.stringify({ m: e.message, d: e.details })).not.toMatch(/wrong-url-pass|wrong-url-pass%2F9/);
    const gone = await failureOf(connect({ hosts: ['http://ingest:url-pass-secret@127.0.0.1:9', 'ingest:bare-pass-secret@127.0.0.1:9'] }));
    expect(gone.code).toBe('SEARCH_INDEX_UNREACHABLE');
    expect(gone.message).toContain('http://ingest:********@127.0.0.1:9, http://ingest:********@127.0.0.1:9: no answer');
    expect(JSON.stringify({ m: gone.message, d: gone.details })).not.toMatch(/url-pass-secret|bare-pass-secret/);
  });

  it('names the auth form and never the secret when nothing answers', async () => {
    const e = await failureOf(connect({ hosts: ['http://127.0.0.1:9'], username: 'ingest', password: 'pass-secret-value' }));
    expect(e.code).toBe('SEARCH_INDEX_UNREACHABLE');
    expect(e.message).toMatch(/http:\/\/127\.0\.0\.1:9: no answer \(auth form basic, TLS system CAs\)/);
    expect(e.message).not.toContain('pass-secret-value');
  });
});

describe('search client: options', () => {
  it('reads a bare host:port as http, as the ingestion client table writes hosts', () => {
    expect(normalizeHost('localhost:9200')).toBe('http://localhost:9200');
    expect(normalizeHost('https://x.es.io')).toBe('https://x.es.io');
  });

  it('passes a cloud id to the client and decodes the URL it stands for', async () => {
    const cloudId = `my-deployment:${Buffer.from('us-east-1.aws.found.io$abc123$kib456').toString('base64')}`;
    const o = await clientOptions(searchIndexConfig.parse({ cloud_id: cloudId, index_name: 'i', password: 'pw' }));
    expect(o.cloud).toEqual({ id: cloudId });
    expect(o.nodes).toBeUndefined();
    expect(o.auth).toEqual({ username: 'elastic', password: 'pw' });
    expect(cloudIdUrl(cloudId)).toBe('https://abc123.us-east-1.aws.found.io');
  });

  it('passes bearer tokens and fingerprints to the client (the reference drops both)', async () => {
    const fp = 'ab'.repeat(32);
    const o = await clientOptions(searchIndexConfig.parse({ hosts: ['https://h:9200'], index_name: 'i', bearer_auth: 't', ssl_assert_fingerprint: fp }));
    expect(o.auth).toEqual({ bearer: 't' });
    expect(o.caFingerprint).toBe(Array.from({ length: 32 }, () => 'AB').join(':'));
  });

  it('names a missing CA file', async () => {
    const e = await failureOf(clientOptions(searchIndexConfig.parse({ hosts: ['https://h'], index_name: 'i', ca_certs: '/nonexistent/ca.pem' })));
    expect(e.code).toBe('SEARCH_INDEX_UNREACHABLE');
    expect(e.message).toContain('/nonexistent/ca.pem');
  });
});

let openssl = false;
try {
  execFileSync('openssl', ['version'], { stdio: 'ignore' });
  openssl = true;
} catch {
  console.info('search-index TLS tests skipped: openssl is not installed (needed to make a test certificate)');
}

describe.skipIf(!openssl)('search client: TLS (CA file and certificate fingerprint)', () => {
  let dir: string;
  let es: FakeElasticsearch;
  let caFile: string;
  let fingerprint: string;
  beforeAll(async () => {
    dir = await makeTempDir('quarry-es-tls-');
    const key = path.join(dir, 'key.pem');
    caFile = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        caFile,
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    expect(existsSync(caFile)).toBe(true);
    const cert = await readFile(caFile, 'utf8');
    fingerprint = new X509Certificate(cert).fingerprint256;
    es = await new FakeElasticsearch({ credentials, tls: { key: await readFile(key, 'utf8'), cert } }).start();
  });
  afterAll(async () => {
    await es?.stop();
    await removeDir(dir);
  });

  it('trusts the cluster through the CA file (ca_certs)', async () => {
    await connect({ hosts: [es.url], search_api_key: API_KEY, ca_certs: caFile });
  });

  it('refuses a self-signed cluster without the CA file, naming the TLS form and the auth form', async () => {
    const e = await failureOf(connect({ hosts: [es.url], search_api_key: API_KEY }));
    expect(e.code).toBe('SEARCH_INDEX_UNREACHABLE');
    expect(e.message).toContain('auth form api_key, TLS system CAs');
    expect(e.message).not.toContain(API_KEY);
  });

  it('accepts the cluster certificate by its fingerprint (colons optional, any case)', async () => {
    await connect({ hosts: [es.url], username: 'ingest', password: 'pass-secret-value', ssl_assert_fingerprint: fingerprint });
    await connect({ hosts: [es.url], bearer_auth: 'bearer-secret-value', ssl_assert_fingerprint: fingerprint.replace(/:/g, '').toLowerCase() });
  });

  it('refuses a certificate whose fingerprint differs, with CA file and fingerprint together too', async () => {
    const other = 'AB'.repeat(32);
    const e = await failureOf(connect({ hosts: [es.url], search_api_key: API_KEY, ssl_assert_fingerprint: other }));
    expect(e.code).toBe('SEARCH_INDEX_UNREACHABLE');
    expect(e.message).toContain('TLS certificate fingerprint');
    expect(e.message).toMatch(/fingerprint does not match/);
    await connect({ hosts: [es.url], search_api_key: API_KEY, ca_certs: caFile, ssl_assert_fingerprint: fingerprint });
  });
});
