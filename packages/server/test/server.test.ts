import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_KEY_DETAIL, MISSING_KEY_DETAIL } from '../src/index.js';
import { KEYS, form, repoRoot, startServer, tempDir, waitForJob, type TestServer } from './support.js';

const docs = path.join(repoRoot, 'examples', 'docs');
const FILES = ['release-checklist.txt', 'quarterly-notes.html', 'field-guide.md'];

describe('REST service end to end (fresh server, real HTTP)', () => {
  const tmp = tempDir();
  let t: TestServer;
  const ids: Record<string, string> = {};
  const inputs = new Map<string, string>();

  beforeAll(async () => {
    t = await startServer({ dataDir: tmp.dir });
  });
  afterAll(async () => {
    await t?.close();
    tmp.remove();
  });

  it('refuses requests without a key or with an unknown key', async () => {
    expect(await t.call('GET', '/workflows', { key: null })).toMatchObject({ status: 401, body: { detail: MISSING_KEY_DETAIL } });
    expect(await t.call('GET', '/workflows', { key: 'not-a-real-key' })).toMatchObject({ status: 401, body: { detail: INVALID_KEY_DETAIL } });
    // The reference platform's header name works too.
    const res = await fetch(`${t.base}/workflows`, { headers: { 'unstructured-api-key': KEYS.acme } });
    expect(res.status).toBe(200);
  });

  it('creates a destination and a workflow', async () => {
    const dst = await t.call('POST', '/destinations/', { json: { name: 'results', type: 'local', config: { path: 'results' } } });
    expect(dst.status).toBe(200);
    expect(dst.body).toMatchObject({ name: 'results', type: 'local', config: { path: 'results' } });
    ids.destination = dst.body.id;
    const wf = await t.call('POST', '/workflows/', {
      json: {
        name: 'docs to chunks',
        destination_id: ids.destination,
        workflow_type: 'custom',
        workflow_nodes: [
          { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
          { name: 'Chunker', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 400 } },
        ],
      },
    });
    expect(wf.status).toBe(200);
    expect(wf.body).toMatchObject({
      name: 'docs to chunks',
      status: 'active',
      workflow_type: 'custom',
      sources: [],
      destinations: [ids.destination],
      schedule: { crontab_entries: [] },
      reprocess_all: true,
    });
    expect(wf.body.workflow_nodes.map((n: { id: string }) => typeof n.id)).toEqual(['string', 'string']);
    ids.workflow = wf.body.id;
    expect((await t.call('GET', '/workflows')).body.map((w: { id: string }) => w.id)).toEqual([ids.workflow]);
    expect((await t.call('GET', `/destinations?destination_type=local`)).body.map((d: { id: string }) => d.id)).toEqual([ids.destination]);
  });

  it('runs it on uploaded files (202), polls the job to COMPLETED and downloads the output', async () => {
    const files = await Promise.all(FILES.map(async (f) => [f, await readFile(path.join(docs, f))] as [string, Uint8Array]));
    const run = await t.call('POST', `/workflows/${ids.workflow}/run`, { form: form(files) });
    expect(run.status).toBe(202);
    expect(run.body).toMatchObject({ workflow_id: ids.workflow, workflow_name: 'docs to chunks', job_type: 'persistent' });
    expect(['SCHEDULED', 'IN_PROGRESS']).toContain(run.body.status);
    expect(run.body.input_file_ids).toHaveLength(3);
    ids.job = run.body.id;
    FILES.forEach((f, i) => inputs.set(f, run.body.input_file_ids[i]));

    const job = await waitForJob(t, ids.job!);
    expect(job.status).toBe('COMPLETED');
    expect(job.output_node_files).toHaveLength(3);
    const details = await t.call('GET', `/jobs/${ids.job}/details`);
    expect(details.body.processing_status).toBe('SUCCESS');
    expect(details.body.node_stats.map((s: { node_name: string; success: number; failure: number }) => [s.node_name, s.success, s.failure])).toEqual([
      ['Partitioner', 3, 0],
      ['Chunker', 3, 0],
      ['Destination', 3, 0],
    ]);
    expect((await t.call('GET', `/jobs/${ids.job}/failed-files`)).body).toEqual({ failed_files: [] });

    const dl = await t.call('GET', `/jobs/${ids.job}/download?file_id=${inputs.get('quarterly-notes.html')}&node_id=${job.output_node_files[0].node_id}`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toMatch(/application\/json/);
    expect(dl.headers.get('content-disposition')).toBe(`attachment; filename="quarterly-notes.html.json"; filename*=UTF-8''quarterly-notes.html.json`);
    const chunks = dl.body as Array<{ type: string; text: string; metadata: { filename: string } }>;
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => ['CompositeElement', 'Table', 'TableChunk'].includes(c.type) && c.text.length <= 400)).toBe(true);
    expect(chunks[0]!.text).toContain('Quarterly Operations Notes');
    expect(chunks[0]!.metadata.filename).toBe('quarterly-notes.html');
    // The destination connector wrote the same documents into the workspace's directory.
    const written = JSON.parse(await readFile(path.join(tmp.dir, 'workspaces', 'acme', 'files', 'results', 'quarterly-notes.html.json'), 'utf8')) as Array<{
      text: string;
    }>;
    expect(written.map((c) => c.text)).toEqual(chunks.map((c) => c.text));
    expect((await t.call('GET', `/jobs/${ids.job}/download`)).status).toBe(422);
    expect((await t.call('GET', `/jobs/${ids.job}/download?file_id=nope`)).status).toBe(404);
  });

  it('finds all of it again after a restart on the same data directory', async () => {
    await t.close();
    expect(existsSync(path.join(tmp.dir, 'quarry.db'))).toBe(true);
    t = await startServer({ dataDir: tmp.dir });
    expect((await t.call('GET', `/workflows/${ids.workflow}`)).body).toMatchObject({
      id: ids.workflow,
      name: 'docs to chunks',
      destinations: [ids.destination],
    });
    expect((await t.call('GET', `/destinations/${ids.destination}`)).body).toMatchObject({ id: ids.destination, name: 'results' });
    expect((await t.call('GET', `/jobs/${ids.job}`)).body).toMatchObject({ id: ids.job, status: 'COMPLETED' });
    expect((await t.call('GET', `/jobs?workflow_id=${ids.workflow}&status=completed`)).body.map((j: { id: string }) => j.id)).toEqual([ids.job]);
    expect((await t.call('GET', `/jobs/${ids.job}/details`)).body.node_stats[0]).toMatchObject({ node_name: 'Partitioner', success: 3 });
    const dl = await t.call('GET', `/jobs/${ids.job}/download?file_id=${inputs.get('release-checklist.txt')}`);
    expect(dl.status).toBe(200);
    expect(dl.body[0].metadata.filename).toBe('release-checklist.txt');
    // It still runs after the restart.
    const again = await t.call('POST', `/workflows/${ids.workflow}/run`, { form: form([['note.txt', 'One more document.']]) });
    expect((await waitForJob(t, again.body.id)).status).toBe('COMPLETED');
  });

  it("shows another workspace's key none of it", async () => {
    const as = { key: KEYS.beta };
    for (const p of [
      `/workflows/${ids.workflow}`,
      `/destinations/${ids.destination}`,
      `/jobs/${ids.job}`,
      `/jobs/${ids.job}/details`,
      `/jobs/${ids.job}/failed-files`,
      `/jobs/${ids.job}/download?file_id=${inputs.get('field-guide.md')}`,
    ]) {
      const r = await t.call('GET', p, as);
      expect([p, r.status]).toEqual([p, 404]);
      expect(r.body.detail).toMatch(/not found/);
    }
    for (const p of ['/workflows', '/destinations', '/sources', '/jobs']) expect((await t.call('GET', p, as)).body).toEqual([]);
    expect((await t.call('PUT', `/workflows/${ids.workflow}`, { ...as, json: { name: 'stolen' } })).status).toBe(404);
    expect((await t.call('DELETE', `/workflows/${ids.workflow}`, as)).status).toBe(404);
    expect((await t.call('POST', `/workflows/${ids.workflow}/run`, { ...as, form: form([['x.txt', 'x']]) })).status).toBe(404);
    expect((await t.call('POST', `/jobs/${ids.job}/cancel`, as)).status).toBe(404);
    expect((await t.call('DELETE', `/destinations/${ids.destination}`, as)).status).toBe(404);
    // A name taken in one workspace is free in another.
    expect((await t.call('POST', '/destinations', { ...as, json: { name: 'results', type: 'local', config: { path: 'results' } } })).status).toBe(200);
    expect((await t.call('GET', `/workflows/${ids.workflow}`)).body.name).toBe('docs to chunks');
  });

  it('updates, deactivates, refuses conflicting operations and deletes', async () => {
    const put = await t.call('PUT', `/workflows/${ids.workflow}`, { json: { status: 'inactive', name: 'renamed' } });
    expect(put.body).toMatchObject({ status: 'inactive', name: 'renamed' });
    const blocked = await t.call('POST', `/workflows/${ids.workflow}/run`, { form: form([['x.txt', 'x']]) });
    expect(blocked.status).toBe(409);
    expect(blocked.body.detail).toMatch(/inactive/);
    expect((await t.call('POST', `/jobs/${ids.job}/cancel`)).status).toBe(409);
    const inUse = await t.call('DELETE', `/destinations/${ids.destination}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.detail).toContain(ids.workflow);
    expect((await t.call('DELETE', `/workflows/${ids.workflow}`)).body).toEqual({ id: ids.workflow, deleted: true });
    expect((await t.call('DELETE', `/destinations/${ids.destination}`)).status).toBe(200);
    expect((await t.call('GET', `/jobs/${ids.job}`)).status).toBe(200);
  });

  it('runs an on-demand job from a template over uploaded files', async () => {
    const templates = await t.call('GET', '/templates/');
    expect(templates.body.find((x: { id: string }) => x.id === 'fast_and_chunk')).toMatchObject({ available: true });
    expect((await t.call('GET', '/templates/hi_res_and_enrichment')).body.nodes.map((n: { type: string }) => n.type)).toEqual([
      'partition',
      'prompter',
      'prompter',
      'prompter',
    ]);
    expect((await t.call('GET', '/templates/nonexistent_template')).body).toEqual({ detail: 'Template nonexistent_template not found' });
    const job = await t.call('POST', '/jobs/', {
      form: form([['notes été 报告.md', '# Notes\n\nSome text under a heading.']], 'input_files', {
        request_data: JSON.stringify({ template_id: 'fast_and_chunk' }),
      }),
    });
    expect(job.status).toBe(200);
    expect(job.body.job_type).toBe('template');
    const done = await waitForJob(t, job.body.id);
    expect(done.status).toBe('COMPLETED');
    expect((await t.call('GET', `/workflows/${job.body.workflow_id}`)).status).toBe(404);
    const dl = await t.call('GET', `/jobs/${job.body.id}/download?file_id=${done.input_file_ids[0]}`);
    expect(dl.body.map((e: { type: string }) => e.type)).toEqual(['CompositeElement']);
    expect(dl.body[0].metadata.filename).toBe('notes été 报告.md');
    expect(dl.headers.get('content-disposition')).toBe(
      `attachment; filename="notes _t_ __.md.json"; filename*=UTF-8''notes%20%C3%A9t%C3%A9%20%E6%8A%A5%E5%91%8A.md.json`,
    );
    expect(dl.body[0].text).toBe('Notes\n\nSome text under a heading.');
  });
});
