import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobRow, storeConformance, workflowRow } from '../../core/test/service/store-conformance.js';
import { SqliteStore } from '../src/index.js';
import { startServer, tempDir } from './support.js';

const tmp = tempDir('quarry-sqlite-');
afterAll(() => tmp.remove());
let n = 0;
const fresh = (): string => path.join(tmp.dir, `store-${n++}`, 'quarry.db');
const files = new WeakMap<object, string>();

storeConformance(
  'SqliteStore',
  async () => {
    const file = fresh();
    const store = SqliteStore.open(file);
    files.set(store, file);
    return store;
  },
  async (closed) => SqliteStore.open(files.get(closed)!),
);

describe('SqliteStore', () => {
  it('refuses to move an id into another workspace, and works in memory', async () => {
    const s = SqliteStore.open(':memory:');
    await s.put('workflows', workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z'));
    await expect(s.put('workflows', workflowRow('w1', 'beta', '2025-01-01T00:00:00.000Z'))).rejects.toThrow(/another workspace/);
    expect((await s.get('workflows', 'acme', 'w1'))?.workspace).toBe('acme');
    await s.close();
    await s.close();
  });
});

describe('a server over the SQLite store after a crash', () => {
  it('marks jobs left SCHEDULED or IN_PROGRESS as FAILED, with a message', async () => {
    const dataDir = path.join(tmp.dir, 'crashed');
    const store = SqliteStore.open(path.join(dataDir, 'quarry.db'));
    await store.put('workflows', workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z'));
    await store.put('jobs', jobRow('j-running', 'acme', 'w1', 'IN_PROGRESS', '2025-01-01T00:01:00.000Z'));
    await store.put('jobs', jobRow('j-queued', 'acme', 'w1', 'SCHEDULED', '2025-01-01T00:02:00.000Z'));
    await store.put('jobs', jobRow('j-done', 'acme', 'w1', 'COMPLETED', '2025-01-01T00:00:30.000Z'));
    await store.close();
    const t = await startServer({ dataDir });
    try {
      const jobs = (await t.call('GET', '/jobs?sort_direction=asc')).body as Array<{ id: string; status: string; message?: string }>;
      expect(jobs.map((j) => [j.id, j.status])).toEqual([['j-done', 'COMPLETED'], ['j-running', 'FAILED'], ['j-queued', 'FAILED']]);
      expect(jobs[1]!.message).toBe('The service stopped while this job was IN_PROGRESS; it was marked FAILED when the service started again.');
      expect(t.logs.some((l) => l.includes('job interrupted by a restart marked FAILED'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
