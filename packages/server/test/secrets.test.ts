import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineDestination, definePlugin } from '@quarry/core';
import { defaultEngine } from '../src/index.js';
import { form, startServer, tempDir, waitForJob, type TestServer } from './support.js';

const SECRETS = {
  api: 'sk-live-API-KEY-a1b2c3d4e5',
  password: 'P@ssw0rd-correct-horse',
  token: 'tok_bearer_f00dfeedbeef',
  search: 'c2VhcmNoLWFwaS1rZXktOTk5OQ==',
};

/** A destination whose config carries secrets; it refuses documents containing "REFUSE" with an error that names its key. */
const vault = defineDestination({
  type: 'vault',
  config: z.strictObject({
    url: z.string().url(),
    api_key: z.string().min(8),
    password: z.string().optional(),
    auth: z.strictObject({ bearer_token: z.string() }).optional(),
  }),
  create: (config) => ({
    async write(flow) {
      if (flow.elements.some((e) => e.text.includes('REFUSE'))) throw new Error(`401 from ${config.url}: key ${config.api_key} / ${config.password} rejected`);
    },
  }),
});

describe('no secret in any response or log line', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => {
    const engine = defaultEngine().use(definePlugin({ name: 'vault-test', engine: '*', destinations: [vault] }));
    t = await startServer({ dataDir: tmp.dir, engine });
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('masks, scrubs and redacts', async () => {
    const created = await t.call('POST', '/destinations', {
      json: {
        name: 'vault',
        type: 'vault',
        config: { url: 'https://vault.example', api_key: SECRETS.api, password: SECRETS.password, auth: { bearer_token: SECRETS.token } },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.config).toEqual({ url: 'https://vault.example', api_key: '********', password: '********', auth: '********' });
    const id = created.body.id as string;
    // A search_index connector, when the connectors plugin provides one.
    const search = await t.call('POST', '/destinations', {
      json: { name: 'index', type: 'search_index', config: { hosts: ['https://cluster.example:9243'], search_api_key: SECRETS.search, index_name: 'docs' } },
    });
    if (search.status === 200) expect(search.body.config.search_api_key).toBe('********');
    else expect(search.body.detail[0].type).toBe('connector.unknown_type');
    // Invalid bodies that carry secrets do not echo them.
    const bad = await t.call('POST', '/destinations', { json: { name: 'vault', type: 'vault', config: { url: 'nope', api_key: SECRETS.api, password: 42 } } });
    expect(bad.status).toBe(422);

    await t.call('GET', `/destinations/${id}`);
    await t.call('GET', '/destinations');
    const put = await t.call('PUT', `/destinations/${id}`, { json: { config: { ...created.body.config, auth: { bearer_token: '********' } } } });
    expect(put.status).toBe(200);
    await t.call('POST', `/destinations/${id}/connection-check`);
    await t.call('GET', `/destinations/${id}/connection-check`);

    const wf = await t.call('POST', '/workflows', {
      json: {
        name: 'to vault',
        destination_id: id,
        workflow_type: 'custom',
        workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      },
    });
    const run = await t.call('POST', `/workflows/${wf.body.id}/run`, {
      form: form([
        ['ok.txt', 'all good'],
        ['refuse.txt', 'please REFUSE this'],
      ]),
    });
    const job = await waitForJob(t, run.body.id);
    expect(job.status).toBe('COMPLETED');
    const failed = await t.call('GET', `/jobs/${run.body.id}/failed-files`);
    expect(failed.body.failed_files).toEqual([
      { document: 'refuse.txt', error: 'DESTINATION_WRITE_FAILED: 401 from https://vault.example: key ******** / ******** rejected' },
    ]);
    await t.call('GET', `/jobs/${run.body.id}/details`);
    await t.call('GET', '/jobs');
    await t.call('GET', '/openapi.json');
    // Keys sent in headers are never logged either.
    expect(t.logs.some((l) => l.includes('"msg":"incoming request"'))).toBe(true);
    expect(t.logs.some((l) => l.includes('document failed') || l.includes('rejected'))).toBe(true);

    const everything = [...t.responses, ...t.logs].join('\n');
    for (const secret of [...Object.values(SECRETS), Buffer.from(SECRETS.api).toString('base64'), 'acme-key-0123456789'])
      expect(everything).not.toContain(secret);
  });
});
