import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointerToLoc } from '../src/index.js';
import { form, startServer, tempDir, type TestServer } from './support.js';

describe('422 answers list every problem', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('maps JSON pointers to FastAPI loc arrays', () => {
    expect(pointerToLoc('body', '/workflow_nodes/0/settings/a~1b')).toEqual(['body', 'workflow_nodes', 0, 'settings', 'a/b']);
    expect(pointerToLoc('query', '')).toEqual(['query']);
  });

  it('an invalid workflow body', async () => {
    const r = await t.call('POST', '/workflows', {
      json: {
        name: '',
        workflow_type: 'advanced',
        schedule: 'hourly',
        source_id: 'no-such-source',
        workflow_nodes: [
          { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 0, overlap: -1, multipage_sections: 'yes' } },
          { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'medium' } },
          { name: 'Embedder', type: 'embed', subtype: 'openai', settings: {} },
        ],
        extra: true,
      },
    });
    expect(r.status).toBe(422);
    const detail = r.body.detail as Array<{ loc: Array<string | number>; msg: string; type: string }>;
    for (const d of detail) {
      expect(d.loc[0]).toBe('body');
      expect(typeof d.msg).toBe('string');
      expect(typeof d.type).toBe('string');
    }
    const got = detail.map((d) => `${d.type} ${JSON.stringify(d.loc)}`);
    expect(got).toEqual(
      expect.arrayContaining([
        'schema.too_short ["body","name"]',
        'workflow_type.non_operational ["body","workflow_type"]',
        'schedule.unknown_phrase ["body","schedule"]',
        'schema.unknown_key ["body","extra"]',
        'schema.invalid_type ["body","workflow_nodes",0,"settings","multipage_sections"]',
        'schema.invalid_value ["body","workflow_nodes",1,"settings","strategy"]',
        'schema.required ["body","workflow_nodes",2,"settings","model_name"]',
        'order.partition_not_first ["body","workflow_nodes",1]',
        'reference.not_found ["body","source_id"]',
      ]),
    );
    expect(detail.length).toBeGreaterThanOrEqual(9);
  });

  it('a body that is not JSON, or not an object', async () => {
    expect(await t.call('POST', '/workflows', { json: '{"name": ' })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body'], type: 'json_invalid' }] },
    });
    const arr = await t.call('POST', '/workflows', { json: [] });
    expect(arr.status).toBe(422);
    expect(arr.body.detail[0]).toMatchObject({ loc: ['body'], type: 'schema.invalid_type' });
    expect((await t.call('POST', '/workflows')).body.detail[0].loc).toEqual(['body']);
  });

  it('connector bodies and list queries', async () => {
    const c = await t.call('POST', '/sources', { json: { name: 'x', type: 'local', config: { path: '../outside', recursive: 'yes', colour: 1 } } });
    expect(c.status).toBe(422);
    expect(c.body.detail.map((d: { type: string; loc: unknown[] }) => `${d.type} ${JSON.stringify(d.loc)}`).sort()).toEqual([
      'connector.path_outside_workspace ["body","config","path"]',
      'schema.invalid_type ["body","config","recursive"]',
      'schema.unknown_key ["body","config","colour"]',
    ]);
    expect((await t.call('POST', '/destinations', { json: { name: 'x', type: 'ftp', config: {} } })).body.detail[0]).toMatchObject({
      loc: ['body', 'type'],
      type: 'connector.unknown_type',
    });
    const q = await t.call('GET', '/workflows?page=0&page_size=5000&sort_direction=up');
    expect(q.status).toBe(422);
    expect(q.body.detail.map((d: { loc: unknown[] }) => d.loc).sort()).toEqual([
      ['query', 'page'],
      ['query', 'page_size'],
      ['query', 'sort_direction'],
    ]);
    expect((await t.call('GET', '/jobs?status=sleeping')).body.detail[0].loc).toEqual(['query', 'status']);
  });

  it('unknown paths and ids', async () => {
    expect(await t.call('GET', '/nothing-here')).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    expect(await t.call('GET', '/workflows/abc')).toMatchObject({ status: 404, body: { detail: 'Workflow abc not found' } });
    expect(await t.call('GET', '/jobs/abc/details')).toMatchObject({ status: 404, body: { detail: 'Job abc not found' } });
    expect(await t.call('GET', '/sources/abc')).toMatchObject({ status: 404, body: { detail: 'Source abc not found' } });
  });
});

describe('upload limits', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir, service: { inputLimits: { maxFiles: 2, maxFileBytes: 100 } } })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('answers 413 for too many files or a file over the size limit, and keeps nothing', async () => {
    const wf = await t.call('POST', '/workflows', {
      json: {
        name: 'w',
        workflow_type: 'custom',
        workflow_nodes: [{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      },
    });
    const many = await t.call('POST', `/workflows/${wf.body.id}/run`, {
      form: form([
        ['a.txt', 'a'],
        ['b.txt', 'b'],
        ['c.txt', 'c'],
      ]),
    });
    expect(many.status).toBe(413);
    expect(many.body.detail).toMatch(/too many files/);
    const big = await t.call('POST', `/workflows/${wf.body.id}/run`, { form: form([['a.txt', 'x'.repeat(500)]]) });
    expect(big.status).toBe(413);
    expect(big.body.detail).toMatch(/larger than the size limit/);
    expect((await t.call('GET', '/jobs')).body).toEqual([]);
    expect(await readdir(`${tmp.dir}/uploads`)).toEqual([]);
  });
});
