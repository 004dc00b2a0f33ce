import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeElasticsearch } from '../../connectors/test/support/fake-elasticsearch.js';
import { form, startServer, tempDir, waitForJob, type TestServer } from './support.js';

const PASSWORD = 'UrlPassw0rd-7f3c9a';
const MASK = '********';
/** `http://elastic:<password>@127.0.0.1:<port>` for a fake cluster. */
const withUserinfo = (es: FakeElasticsearch | string, password: string): string =>
  (typeof es === 'string' ? es : es.url).replace('://', `://elastic:${password}@`);

describe('a password written in a connector URL never appears in a response or a log line', () => {
  const tmp = tempDir();
  let t: TestServer;
  let es: FakeElasticsearch;
  let other: FakeElasticsearch;
  beforeAll(async () => {
    // Both clusters would take the password: only the one it was written for may ever receive it.
    es = await new FakeElasticsearch({ credentials: { users: { elastic: PASSWORD } } }).start();
    other = await new FakeElasticsearch({ credentials: { users: { elastic: PASSWORD } } }).start();
    for (const cluster of [es, other]) {
      const made = await fetch(`${cluster.url}/docs`, {
        method: 'PUT',
        headers: { authorization: `Basic ${Buffer.from(`elastic:${PASSWORD}`).toString('base64')}` },
      });
      expect(made.status).toBe(200);
    }
    t = await startServer({ dataDir: tmp.dir });
  });
  afterAll(async () => {
    await t.close();
    await es.stop();
    await other.stop();
    tmp.remove();
  });

  // A source's connection check reads the index, so the cluster judges the password it was sent.
  it('masks it when the connector is created, read and listed, and keeps it when the mask is sent back', async () => {
    const created = await t.call('POST', '/sources', {
      json: { name: 'index', type: 'search_index', config: { hosts: [withUserinfo(es, PASSWORD)], index_name: 'docs' } },
    });
    expect(created.status).toBe(200);
    expect(created.body.config.hosts).toEqual([withUserinfo(es, MASK)]);
    const id = created.body.id as string;
    expect((await t.call('GET', `/sources/${id}`)).body.config.hosts).toEqual([withUserinfo(es, MASK)]);
    expect((await t.call('GET', '/sources')).body.find((c: { id: string }) => c.id === id).config.hosts).toEqual([withUserinfo(es, MASK)]);
    expect((await t.call('POST', `/sources/${id}/connection-check`)).body).toMatchObject({ status: 'SUCCESS' });

    // GET then PUT what was read: the stored password is kept, so the cluster still accepts it.
    const read = (await t.call('GET', `/sources/${id}`)).body;
    const put = await t.call('PUT', `/sources/${id}`, { json: { config: { ...read.config, batch_size: 50 } } });
    expect(put.status).toBe(200);
    expect(put.body.config).toMatchObject({ hosts: [withUserinfo(es, MASK)], batch_size: 50 });
    const before = es.requests.length;
    expect((await t.call('POST', `/sources/${id}/connection-check`)).body).toMatchObject({ status: 'SUCCESS' });
    expect(es.requests.slice(before).every((r) => r.authScheme === 'Basic')).toBe(true);
  });

  it('never carries the stored password to another host', async () => {
    const created = await t.call('POST', '/sources', {
      json: { name: 'index-2', type: 'search_index', config: { hosts: [withUserinfo(es, PASSWORD)], index_name: 'docs' } },
    });
    const moved = await t.call('PUT', `/sources/${created.body.id}`, { json: { config: { hosts: [withUserinfo(other, MASK)], index_name: 'docs' } } });
    expect(moved.status).toBe(200);
    const check = await t.call('POST', `/sources/${created.body.id}/connection-check`);
    expect(check.body).toMatchObject({
      status: 'FAILURE',
      reason: expect.stringContaining(
        `at ${withUserinfo(other, MASK)}: the cluster rejected authentication with user "elastic" and password in the host URL (auth form basic, HTTP 401)`,
      ),
    });
  });

  it('masks it in failure texts: a connection check, a failed job, a 422 that echoes a value', async () => {
    const unreachable = 'http://127.0.0.1:9';
    const source = await t.call('POST', '/sources', {
      json: { name: 'gone', type: 'search_index', config: { hosts: [withUserinfo(unreachable, PASSWORD)], index_name: 'docs' } },
    });
    expect(source.status).toBe(200);
    const check = await t.call('POST', `/sources/${source.body.id}/connection-check`);
    expect(check.body).toMatchObject({ status: 'FAILURE', reason: expect.stringContaining(`${withUserinfo(unreachable, MASK)}: no answer`) });
    expect((await t.call('GET', `/sources/${source.body.id}/connection-check`)).body.reason).toBe(check.body.reason);

    const destination = await t.call('POST', '/destinations', {
      json: {
        name: 'gone',
        type: 'search_index',
        config: { hosts: [withUserinfo(unreachable, PASSWORD)], index_name: 'docs', max_retries: 0, request_timeout_ms: 2000 },
      },
    });
    const wf = await t.call('POST', '/workflows', {
      json: {
        name: 'to nowhere',
        destination_id: destination.body.id,
        workflow_type: 'custom',
        workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      },
    });
    expect(wf.status).toBe(200);
    const run = await t.call('POST', `/workflows/${wf.body.id}/run`, { form: form([['note.txt', 'A short note.']]) });
    expect(run.status).toBe(202);
    const job = await waitForJob(t, run.body.id);
    expect(job.status).toBe('FAILED');
    expect(job.message).toContain(withUserinfo(unreachable, MASK));
    await t.call('GET', `/jobs/${run.body.id}/details`);
    await t.call('GET', `/jobs/${run.body.id}/failed-files`);
    await t.call('GET', '/jobs');

    const echoed = await t.call('POST', '/destinations', {
      json: { name: 'bad', type: 'search_index', config: { hosts: ['http://h:9200'], index_name: 'docs', batch_size: withUserinfo(unreachable, PASSWORD) } },
    });
    expect(echoed.status).toBe(422);
    expect(JSON.stringify(echoed.body)).toContain(withUserinfo(unreachable, MASK));
  });

  it('masks it in every log line, whoever logs it', async () => {
    t.server.app.log.warn(
      { target: withUserinfo(es, PASSWORD), quoted: `"${withUserinfo(es, `${PASSWORD}"x`)}"` },
      `could not reach ${withUserinfo(es, PASSWORD)}`,
    );
    const line = t.logs.find((l) => l.includes('could not reach'));
    expect(JSON.parse(line!)).toMatchObject({
      target: withUserinfo(es, MASK),
      quoted: `"${withUserinfo(es, MASK)}"`,
      msg: `could not reach ${withUserinfo(es, MASK)}`,
    });
  });

  it('left the password in no response and no log line', () => {
    expect(t.logs.some((l) => l.includes(MASK))).toBe(true);
    const everything = [...t.responses, ...t.logs].join('\n');
    for (const form of [PASSWORD, Buffer.from(`elastic:${PASSWORD}`).toString('base64')]) expect(everything).not.toContain(form);
  });
});
