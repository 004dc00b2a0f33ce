import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

describe('SqliteStore held by a process', () => {
  it('refuses a second open of the same file with STORE_LOCKED, and opens again once closed', async () => {
    const file = fresh();
    const s = SqliteStore.open(file);
    expect(() => SqliteStore.open(file)).toThrow(
      expect.objectContaining({ code: 'STORE_LOCKED', message: expect.stringContaining(`${file} is in use by another process (`) }),
    );
    await s.close();
    const again = SqliteStore.open(file);
    await again.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('takes over the lock of a process killed while it held the store, keeping what it wrote', async () => {
    const file = fresh();
    const script = path.join(tmp.dir, 'holder.mts');
    const store = fileURLToPath(new URL('../src/sqlite-store.ts', import.meta.url));
    writeFileSync(
      script,
      `import { SqliteStore } from ${JSON.stringify(store)};\nconst s = SqliteStore.open(process.argv[2]);\nawait s.put('workflows', ${JSON.stringify(workflowRow('w1', 'acme', '2025-01-01T00:00:00.000Z'))});\nconsole.log('ready');\nsetInterval(() => {}, 1000);\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script, file], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`holder exited with ${code}: ${stderr}`)));
    });
    expect(() => SqliteStore.open(file)).toThrow(expect.objectContaining({ code: 'STORE_LOCKED', message: expect.stringContaining(String(child.pid)) }));
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(existsSync(`${file}.lock`)).toBe(true);
    const s = SqliteStore.open(file);
    expect((await s.get('workflows', 'acme', 'w1'))?.name).toBe('wf-w1');
    await s.close();
  }, 60_000);
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
      expect(jobs.map((j) => [j.id, j.status])).toEqual([
        ['j-done', 'COMPLETED'],
        ['j-running', 'FAILED'],
        ['j-queued', 'FAILED'],
      ]);
      expect(jobs[1]!.message).toBe('The service stopped while this job was IN_PROGRESS; it was marked FAILED when the service started again.');
      expect(t.logs.some((l) => l.includes('job interrupted by a restart marked FAILED'))).toBe(true);
    } finally {
      await t.close();
    }
  });
});
