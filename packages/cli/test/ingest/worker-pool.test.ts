import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/ingest/worker-pool.js';

const workerUrl = new URL('../support/probe-worker.ts', import.meta.url);

describe('WorkerPool', () => {
  let pool: WorkerPool<{ word: string; ms: number }, { word: string; thread: number }> | undefined;
  afterEach(async () => pool?.close());

  it('runs tasks on every worker thread in parallel', async () => {
    pool = new WorkerPool({ workerUrl, size: 3 });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((word) => pool!.run({ word, ms: 150 })));
    expect(results.map((r) => r.word)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(new Set(results.map((r) => r.thread)).size).toBe(3);
  });

  it('fails a task alone with the coded error its worker reports', async () => {
    pool = new WorkerPool({ workerUrl, size: 2 });
    const [ok, bad] = await Promise.allSettled([pool.run({ word: 'x', ms: 1 }), pool.run({ word: 'fail', ms: 1 })]);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { word: 'X' } });
    const e = (bad as PromiseRejectedResult).reason as Error;
    expect(isQuarryError(e) && e.code).toBe('FILE_UNREADABLE');
  });

  it('replaces a worker that dies: only its task fails, and later tasks still run', async () => {
    pool = new WorkerPool({ workerUrl, size: 1 });
    const crashed = pool.run({ word: 'crash', ms: 1 });
    const after = pool.run({ word: 'next', ms: 1 });
    await expect(crashed).rejects.toMatchObject({ code: 'NODE_FAILED' });
    await expect(after).resolves.toMatchObject({ word: 'NEXT' });
    expect(pool.size).toBe(1);
  });
});
