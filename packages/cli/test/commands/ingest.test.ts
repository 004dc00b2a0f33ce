import { readdir, readFile } from 'node:fs/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '@quarry/core';
import { ingestCommand, sourceConfigFromOptions } from '../../src/commands/ingest.js';
import { addIngestCommand } from '../../src/commands/ingest-options.js';
import { SERVICE_API_KEY_ENV, type IngestSearchIndexOptions } from '../../src/commands/ingest-flags.js';
import { FakeElasticsearch } from '../../../connectors/test/support/fake-elasticsearch.js';
import { FakePartitionEndpoint } from '../support/fake-partition-endpoint.js';

const API_KEY = Buffer.from('ingest-id:ingest-key-secret').toString('base64');
const SERVICE_KEY = 'service-key-secret';

let es: FakeElasticsearch;
let api: FakePartitionEndpoint;
let dir: string;
let n = 0;

async function seed(index: string, docs: Record<string, Record<string, unknown>>): Promise<void> {
  const headers = { authorization: `ApiKey ${API_KEY}`, 'content-type': 'application/json' };
  await fetch(`${es.url}/${index}`, { method: 'PUT', headers, body: '{}' });
  const body = Object.entries(docs)
    .map(([id, d]) => `${JSON.stringify({ index: { _id: id } })}\n${JSON.stringify(d)}\n`)
    .join('');
  const r = await fetch(`${es.url}/${index}/_bulk?refresh=true`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-ndjson' }, body });
  expect(r.status).toBe(200);
}

/** Runs the command in-process, keeping its stdout and exit code. */
async function ingest(options: Partial<IngestSearchIndexOptions>) {
  const out: string[] = [];
  // The command sets the exit code; the test worker's own is put back after.
  const exitCodeBefore = process.exitCode;
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
    out.push(String(s));
    return true;
  });
  try {
    const summary = await ingestCommand(
      { indexName: 'x', outputDir: join(dir, 'out'), numProcesses: 2, strategy: 'auto', ...options } as IngestSearchIndexOptions,
      silentLogger,
    );
    return { summary, stdout: out.join(''), code: process.exitCode };
  } finally {
    spy.mockRestore();
    process.exitCode = exitCodeBefore;
  }
}

async function outputs(outDir: string): Promise<Record<string, Array<{ type: string; text: string; metadata: Record<string, unknown> }>>> {
  const files: Record<string, Array<{ type: string; text: string; metadata: Record<string, unknown> }>> = {};
  for (const f of (await readdir(outDir)).sort()) files[f] = JSON.parse(await readFile(join(outDir, f), 'utf8'));
  return files;
}

beforeAll(async () => {
  es = await new FakeElasticsearch({ credentials: { apiKeys: [API_KEY], users: { ingest: 'pass-secret' }, bearerTokens: ['bearer-secret'] } }).start();
  api = await new FakePartitionEndpoint(SERVICE_KEY).start();
});
afterAll(async () => {
  await es.stop();
  await api.stop();
});
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-ingest-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const host = () => es.url.replace('http://', '');

describe('quarry ingest search-index: local partitioning', () => {
  it('reads the index (fields, batch size, basic auth), partitions in worker threads and writes <record_id>.json with metadata excluded', async () => {
    const index = `docs-${++n}`;
    await seed(index, {
      a: { title: 'Quarterly report', body: 'Revenue grew in every region this quarter.', secret: 'not read' },
      b: { title: 'Minutes', body: 'The committee approved the budget.', secret: 'not read' },
      c: { title: 'Notes', body: 'Three short lines of text.', secret: 'not read' },
    });
    const before = es.requests.length;
    const r = await ingest({
      hosts: [host()],
      indexName: index,
      username: 'ingest',
      password: 'pass-secret',
      fields: ['title', 'body'],
      metadataExclude: ['languages', 'data_source.record_locator.hosts'],
      outputDir: join(dir, 'out'),
      numProcesses: 3,
      strategy: 'fast',
      batchSize: 2,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^3 written, 0 failed of 3 documents; \d+ elements -> /);
    const files = await outputs(join(dir, 'out'));
    const stem = (id: string) => `${index}-${id}-cef3a36a`;
    expect(Object.keys(files)).toEqual(['a', 'b', 'c'].map((id) => `${stem(id)}.json`));
    const a = files[`${stem('a')}.json`]!;
    expect(a.map((e) => e.text)).toEqual(['Quarterly report', 'Revenue grew in every region this quarter.']);
    expect(a[0]!.metadata).toMatchObject({
      filename: `${stem('a')}.txt`,
      filetype: 'text/plain',
      data_source: { version: '1', record_locator: { index_name: index, document_id: 'a' } },
    });
    expect(a[0]!.metadata.languages).toBeUndefined();
    expect((a[0]!.metadata.data_source as { record_locator: Record<string, unknown> }).record_locator.hosts).toBeUndefined();
    const requests = es.requests.slice(before);
    expect(new Set(requests.map((q) => q.authScheme))).toEqual(new Set(['Basic']));
    const searches = requests.filter((q) => q.path === '/_search').map((q) => JSON.parse(q.body) as { _source?: string[]; size?: number });
    expect(searches[0]).toMatchObject({ _source: ['title', 'body'], size: 2 });
    expect(searches).toHaveLength(2);
  });

  it('fails a document that cannot be partitioned alone and exits 1', async () => {
    const index = `docs-${++n}`;
    await seed(index, { good: { text: 'Some text.' }, empty: {} });
    const r = await ingest({ hosts: [es.url], indexName: index, apiKey: API_KEY, outputDir: join(dir, 'out') });
    expect(r.code).toBe(1);
    expect(r.summary).toMatchObject({ total: 2, written: 1, failed: 1 });
    expect(r.summary.failures).toEqual([{ record_id: `${index}-empty`, code: 'FILE_EMPTY', message: expect.stringContaining('empty') }]);
    expect(r.stdout).toContain(`FAILED ${index}-empty: FILE_EMPTY`);
    expect(await readdir(join(dir, 'out'))).toEqual([`${index}-good.json`]);
  });

  it('authenticates with an id and key pair (--api-key-id + --api-key) and with a bearer token', async () => {
    const index = `docs-${++n}`;
    await seed(index, { d: { text: 'Hello.' } });
    let before = es.requests.length;
    const pair = await ingest({ hosts: [es.url], indexName: index, apiKeyId: 'ingest-id', apiKey: 'ingest-key-secret', outputDir: join(dir, 'o1') });
    expect(pair.summary.written).toBe(1);
    expect(es.requests.slice(before).every((q) => q.authScheme === 'ApiKey')).toBe(true);
    before = es.requests.length;
    const bearer = await ingest({ hosts: [es.url], indexName: index, bearerAuth: 'bearer-secret', outputDir: join(dir, 'o2') });
    expect(bearer.summary.written).toBe(1);
    expect(es.requests.slice(before).every((q) => q.authScheme === 'Bearer')).toBe(true);
  });

  it('names the auth form, never the password, when the cluster rejects it', async () => {
    await expect(
      ingest({ hosts: [es.url], indexName: 'whatever', username: 'ingest', password: 'wrong-password-123', outputDir: join(dir, 'o') }),
    ).rejects.toThrow(expect.objectContaining({ code: 'SEARCH_INDEX_AUTH_FAILED', message: expect.not.stringContaining('wrong-password-123') }));
  });
});

describe('quarry ingest search-index --partition-by-api', () => {
  beforeEach(() => {
    api.calls.length = 0;
    api.failWith.length = 0;
  });

  it('posts each document as multipart files + strategy with the unstructured-api-key header, and writes what it answers', async () => {
    const index = `docs-${++n}`;
    await seed(index, { a: { title: 'Alpha', body: 'First line' }, b: { title: 'Beta' } });
    const r = await ingest({
      hosts: [es.url],
      indexName: index,
      apiKey: API_KEY,
      partitionByApi: true,
      partitionEndpoint: api.baseUrl,
      serviceApiKey: SERVICE_KEY,
      strategy: 'hi_res',
      metadataExclude: ['languages'],
      outputDir: join(dir, 'out'),
      numProcesses: 2,
    });
    expect(r.code).toBe(0);
    expect(api.calls).toHaveLength(2);
    const a = api.calls.find((c) => c.files[0]?.name === `${index}-a.txt`)!;
    expect(a.apiKey).toBe(SERVICE_KEY);
    expect(a.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(a.files).toEqual([{ name: `${index}-a.txt`, text: 'Alpha\nFirst line' }]);
    expect(a.fields).toEqual({ strategy: ['hi_res'] });
    const files = await outputs(join(dir, 'out'));
    const out = files[`${index}-a.json`]!;
    expect(out.map((e) => e.text)).toEqual([`${index}-a.txt`, 'Alpha', 'First line']);
    expect(out[1]!.metadata.languages).toBeUndefined();
    expect(out[1]!.metadata.data_source).toMatchObject({ record_locator: { index_name: index, document_id: 'a' } });
  });

  it('takes the service key from the environment and the full endpoint URL as given', async () => {
    const index = `docs-${++n}`;
    await seed(index, { a: { t: 'x' } });
    process.env[SERVICE_API_KEY_ENV] = SERVICE_KEY;
    try {
      const r = await ingest({
        hosts: [es.url],
        indexName: index,
        apiKey: API_KEY,
        partitionByApi: true,
        partitionEndpoint: `${api.baseUrl}/general/v0/general`,
        outputDir: join(dir, 'out'),
      });
      expect(r.summary.written).toBe(1);
      expect(api.calls[0]).toMatchObject({ path: '/general/v0/general', apiKey: SERVICE_KEY, fields: { strategy: ['auto'] } });
    } finally {
      delete process.env[SERVICE_API_KEY_ENV];
    }
  });

  it('maps endpoint errors to codes per document (401, 422 with its detail, 500) and retries 503', async () => {
    const index = `docs-${++n}`;
    await seed(index, { a: { t: 'x' } });
    const run = () =>
      ingest({
        hosts: [es.url],
        indexName: index,
        apiKey: API_KEY,
        partitionByApi: true,
        partitionEndpoint: api.baseUrl,
        serviceApiKey: SERVICE_KEY,
        outputDir: join(dir, 'out'),
        numProcesses: 1,
      });
    const wrongKey = await ingest({
      hosts: [es.url],
      indexName: index,
      apiKey: API_KEY,
      partitionByApi: true,
      partitionEndpoint: api.baseUrl,
      serviceApiKey: 'wrong-service-key',
      outputDir: join(dir, 'out'),
    });
    expect(wrongKey.summary.failures[0]).toMatchObject({ code: 'PARTITION_API_AUTH_FAILED' });
    expect(wrongKey.summary.failures[0]!.message).not.toContain('wrong-service-key');
    api.failWith.push(422);
    expect((await run()).summary.failures[0]).toMatchObject({
      code: 'PARTITION_API_REJECTED',
      message: expect.stringContaining('body.strategy: value is not a valid enumeration member'),
    });
    api.failWith.push(500);
    expect((await run()).summary.failures[0]).toMatchObject({ code: 'PARTITION_API_UNAVAILABLE', message: expect.stringContaining('answered 500') });
    api.failWith.push(503);
    const retried = await run();
    expect(retried.summary).toMatchObject({ written: 1, failed: 0 });
  });

  it('needs the service API key', async () => {
    await expect(ingest({ hosts: [es.url], indexName: 'x', partitionByApi: true })).rejects.toThrow(/--service-api-key or \$QUARRY_SERVICE_API_KEY/);
  });
});

describe('quarry ingest search-index: options', () => {
  function parse(args: string[]): IngestSearchIndexOptions {
    const program = new Command('quarry').exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    const ingestCmd = addIngestCommand(program);
    let got: IngestSearchIndexOptions | undefined;
    ingestCmd.commands[0]!.action((o: IngestSearchIndexOptions) => {
      got = o;
    });
    program.parse(['node', 'quarry', 'ingest', 'search-index', ...args]);
    return got!;
  }

  it('parses every option of the client table', () => {
    const o = parse([
      '--hosts',
      'es1:9200,https://es2:9243',
      '--index-name',
      'docs',
      '--cloud-id',
      'dep:abc',
      '--api-key-id',
      'kid',
      '--username',
      'u',
      '--password',
      'p',
      '--bearer-auth',
      'tok',
      '--api-key',
      'key',
      '--ca-certs',
      'ca.pem',
      '--ssl-assert-fingerprint',
      'AB:CD',
      '--fields',
      'title, body',
      '--metadata-exclude',
      'languages,data_source.record_locator',
      '--output-dir',
      'out',
      '--num-processes',
      '6',
      '--strategy',
      'hi_res',
      '--partition-by-api',
      '--partition-endpoint',
      'http://p',
      '--service-api-key',
      'sk',
      '--batch-size',
      '50',
    ]);
    expect(o).toEqual({
      hosts: ['es1:9200', 'https://es2:9243'],
      indexName: 'docs',
      cloudId: 'dep:abc',
      apiKeyId: 'kid',
      username: 'u',
      password: 'p',
      bearerAuth: 'tok',
      apiKey: 'key',
      caCerts: 'ca.pem',
      sslAssertFingerprint: 'AB:CD',
      fields: ['title', 'body'],
      metadataExclude: ['languages', 'data_source.record_locator'],
      outputDir: 'out',
      numProcesses: 6,
      strategy: 'hi_res',
      partitionByApi: true,
      partitionEndpoint: 'http://p',
      serviceApiKey: 'sk',
      batchSize: 50,
    });
  });

  it('takes --output like every command (and --output-dir, its Unstructured spelling)', () => {
    expect(parse(['--index-name', 'i', '-o', 'o'])).toMatchObject({ output: 'o' });
    expect(parse(['--index-name', 'i', '--output', 'o'])).toMatchObject({ output: 'o' });
    expect(parse(['--index-name', 'i', '--output-dir', 'o'])).toMatchObject({ outputDir: 'o' });
  });

  it('has the defaults of every partitioning command (one process per core, strategy auto), and rejects bad values', () => {
    const o = parse(['--index-name', 'i', '--output-dir', 'o']);
    expect(o).toMatchObject({ strategy: 'auto' });
    expect(o.numProcesses).toBeUndefined();
    expect(parse(['--index-name', 'i', '-o', 'o', '--document-timeout', '30'])).toMatchObject({ documentTimeout: 30 });
    expect(() => parse(['--index-name', 'i', '--output-dir', 'o', '--strategy', 'magic'])).toThrow(/Allowed choices are auto, fast, hi_res, ocr_only, vlm/);
    expect(() => parse(['--index-name', 'i', '--output-dir', 'o', '--num-processes', '0'])).toThrow(/positive integer/);
    expect(() => parse(['--output-dir', 'o'])).toThrow(/--index-name/);
  });

  it('maps the options onto the connector config: cloud id, CA file and fingerprint included', () => {
    const fp = 'ab'.repeat(32);
    const c = sourceConfigFromOptions({
      indexName: 'i',
      cloudId: 'dep:abc',
      password: 'p',
      caCerts: 'ca.pem',
      sslAssertFingerprint: fp,
      fields: ['a'],
      outputDir: 'o',
      numProcesses: 1,
      strategy: 'auto',
    });
    expect(c).toMatchObject({ index_name: 'i', cloud_id: 'dep:abc', password: 'p', ssl_assert_fingerprint: fp, fields: ['a'] });
    expect(c.ca_certs).toMatch(/\/ca\.pem$/);
  });

  it('reports invalid combinations in one line with flag names', () => {
    expect(() =>
      sourceConfigFromOptions({ indexName: 'i', hosts: ['h'], apiKey: 'k', bearerAuth: 't', outputDir: 'o', numProcesses: 1, strategy: 'auto' }),
    ).toThrow('ingest search-index: options: give one authentication form, not search_api_key and bearer_auth');
    expect(() => sourceConfigFromOptions({ indexName: 'i', outputDir: 'o', numProcesses: 1, strategy: 'auto' })).toThrow(
      'ingest search-index: --hosts: give hosts or cloud_id',
    );
  });
});
