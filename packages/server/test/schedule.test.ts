import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '@quarry/core';
import { ManualClock } from '@quarry/core/service';
import { startServer, tempDir, waitForJob, type TestServer } from './support.js';

async function jobs(t: TestServer): Promise<Array<{ id: string; job_type: string; created_at: string; status: string }>> {
  return (await t.call('GET', '/jobs?sort_direction=asc')).body;
}

async function untilJobs(t: TestServer, n: number): Promise<Awaited<ReturnType<typeof jobs>>> {
  for (let i = 0; i < 3000; i++) {
    const list = await jobs(t);
    if (list.length >= n) return list;
    await sleep(10);
  }
  throw new Error(`expected ${n} jobs`);
}

describe('schedules over HTTP (time faked with an injected clock)', () => {
  const tmp = tempDir();
  const clock = new ManualClock('2025-06-01T10:07:00Z');
  let t: TestServer;
  let workflowId: string;

  beforeAll(async () => {
    const inbox = path.join(tmp.dir, 'workspaces', 'acme', 'files', 'inbox');
    await mkdir(inbox, { recursive: true });
    await writeFile(path.join(inbox, 'memo.txt'), 'A scheduled memo.\n\nIt has two paragraphs.');
    t = await startServer({ dataDir: tmp.dir, clock });
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('runs a workflow scheduled "every 15 minutes" on each quarter hour', async () => {
    const src = await t.call('POST', '/sources', { json: { name: 'inbox', type: 'local', config: { path: 'inbox' } } });
    expect(src.status).toBe(200);
    const wf = await t.call('POST', '/workflows', {
      json: {
        name: 'quarter-hourly',
        source_id: src.body.id,
        workflow_type: 'custom',
        schedule: 'every 15 minutes',
        workflow_nodes: [{ name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      },
    });
    expect(wf.body.schedule).toEqual({ crontab_entries: [{ cron_expression: '*/15 * * * *' }] });
    workflowId = wf.body.id;

    clock.set('2025-06-01T10:14:59.999Z');
    await sleep(30);
    expect(await jobs(t)).toEqual([]);
    clock.set('2025-06-01T10:15:00Z');
    const [first] = await untilJobs(t, 1);
    expect(first).toMatchObject({ job_type: 'scheduled', created_at: '2025-06-01T10:15:00.000Z' });
    const done = await waitForJob(t, first!.id);
    expect(done).toMatchObject({ status: 'COMPLETED', workflow_id: workflowId });
    expect(done.message).toBe('1 of 1 documents written, 0 failed, 0 unchanged, 0 stopped');

    clock.set('2025-06-01T10:30:00Z');
    const list = await untilJobs(t, 2);
    expect(list.map((j) => j.created_at)).toEqual(['2025-06-01T10:15:00.000Z', '2025-06-01T10:30:00.000Z']);
    await waitForJob(t, list[1]!.id);
  });

  it('does not replay slots missed while the server was down', async () => {
    await t.close();
    clock.set('2025-06-01T11:20:00Z');
    t = await startServer({ dataDir: tmp.dir, clock });
    await sleep(30);
    expect(await jobs(t)).toHaveLength(2);
    clock.set('2025-06-01T11:30:00Z');
    const list = await untilJobs(t, 3);
    expect(list[2]!.created_at).toBe('2025-06-01T11:30:00.000Z');
    await waitForJob(t, list[2]!.id);
  });

  it('an inactive workflow is not run by its schedule', async () => {
    expect((await t.call('PUT', `/workflows/${workflowId}`, { json: { status: 'inactive' } })).body.status).toBe('inactive');
    clock.set('2025-06-01T12:00:00Z');
    await sleep(50);
    expect(await jobs(t)).toHaveLength(3);
  });
});
