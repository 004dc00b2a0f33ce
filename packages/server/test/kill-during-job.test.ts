/**
 * A server killed with SIGKILL in the middle of a workflow job: after a restart on the same data
 * directory the job is FAILED and shows what it finished (node statistics, written files), and a
 * re-run of the incremental workflow partitions only the documents that were not written.
 */
import { once } from 'node:events';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep } from '@quarry/core';
import { startChildServer } from './child-server.js';
import { KEYS, startServer, tempDir, waitForJob } from './support.js';

const DOCS = 200;
const tmp = tempDir();
afterAll(() => tmp.remove());

/** A paragraph text of some length, different per document. */
const doc = (i: number): string =>
  Array.from({ length: 40 }, (_, p) => `Document ${i}, paragraph ${p}: the quarterly figures were reviewed and filed.`).join('\n\n');

describe('kill -9 during a job', () => {
  it('leaves a FAILED job showing the documents it wrote, and a re-run does only the rest', async () => {
    const inbox = path.join(tmp.dir, 'workspaces', 'acme', 'files', 'inbox');
    await mkdir(inbox, { recursive: true });
    for (let i = 0; i < DOCS; i++) await writeFile(path.join(inbox, `doc-${String(i).padStart(3, '0')}.txt`), doc(i));

    const server = await startChildServer(tmp.dir, { partitionPool: { size: 1 } });
    const base = server.base;
    const call = async (method: string, p: string, json?: unknown): Promise<any> => {
      const res = await fetch(base + p, {
        method,
        headers: { 'service-api-key': KEYS.acme, ...(json ? { 'content-type': 'application/json' } : {}) },
        ...(json ? { body: JSON.stringify(json) } : {}),
      });
      return res.json();
    };
    const source = await call('POST', '/sources', { name: 'inbox', type: 'local', config: { path: 'inbox' } });
    const destination = await call('POST', '/destinations', { name: 'results', type: 'local', config: { path: 'results' } });
    const wf = await call('POST', '/workflows', {
      name: 'incremental',
      source_id: source.id,
      destination_id: destination.id,
      workflow_type: 'custom',
      reprocess_all: false,
      workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
    });
    const job = await call('POST', `/workflows/${wf.id}/run`);
    let written = 0;
    for (let i = 0; i < 6000 && written < 10; i++) {
      const details = await call('GET', `/jobs/${job.id}/details`);
      written = details.node_stats.at(-1).success;
      await sleep(20);
    }
    expect(written).toBeGreaterThanOrEqual(10);
    // Past one checkpoint interval, then the kill.
    await sleep(1500);
    server.child.kill('SIGKILL');
    await once(server.child, 'exit');

    const t = await startServer({ dataDir: tmp.dir });
    try {
      const failed = await t.call('GET', `/jobs/${job.id}`);
      expect(failed.body.status).toBe('FAILED');
      const stored = failed.body.message.match(/Before it stopped, (\d+) documents were written and 0 failed\./);
      expect(stored, failed.body.message).not.toBeNull();
      const kept = Number(stored[1]);
      expect(kept).toBeGreaterThanOrEqual(10);
      expect(kept).toBeLessThan(DOCS);
      const details = await t.call('GET', `/jobs/${job.id}/details`);
      const last = details.body.node_stats.at(-1);
      expect(last).toMatchObject({ node_name: 'Destination', success: kept, ready: 0, in_progress: 0 });
      const files = await readdir(path.join(tmp.dir, 'workspaces', 'acme', 'files', 'results'));
      expect(files.length).toBeGreaterThanOrEqual(kept);

      const rerun = await t.call('POST', `/workflows/${wf.id}/run`);
      expect(rerun.status, rerun.text).toBe(202);
      const done = await waitForJob(t, rerun.body.id);
      expect(done.status).toBe('COMPLETED');
      const [, nowWritten, total, , unchanged] = done.message.match(/^(\d+) of (\d+) documents written, (\d+) failed, (\d+) unchanged/).map(Number);
      expect(total).toBe(DOCS);
      expect(unchanged).toBeGreaterThanOrEqual(kept);
      expect(nowWritten + unchanged).toBe(DOCS);
      // A write the kill interrupted may leave its temporary file beside the outputs.
      expect((await readdir(path.join(tmp.dir, 'workspaces', 'acme', 'files', 'results'))).filter((f) => f.endsWith('.json'))).toHaveLength(DOCS);
    } finally {
      await t.close();
    }
  }, 180_000);
});
