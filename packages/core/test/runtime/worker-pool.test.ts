import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool } from '../../src/runtime/worker-pool.js';

const workerUrl = new URL('../support/busy-worker.ts', import.meta.url);
type Task = { ms: number; bytes?: Uint8Array };
type Result = { thread: number; length: number };

describe('WorkerPool', () => {
  let pool: WorkerPool<Task, Result> | undefined;
  afterEach(async () => pool?.close());

  it('moves transferred buffers to the worker instead of copying them', async () => {
    pool = new WorkerPool({ workerUrl, size: 1 });
    const bytes = new Uint8Array(1024);
    const r = await pool.run({ ms: 1, bytes }, [bytes.buffer]);
    expect(r.length).toBe(1024);
    // Transferred: the sender's buffer is detached.
    expect(bytes.byteLength).toBe(0);
  });

  it('terminates and replaces the worker of a running task whose signal aborts', async () => {
    pool = new WorkerPool({ workerUrl, size: 1, name: 'busy' });
    const first = await pool.run({ ms: 1 });
    const ac = new AbortController();
    // Blocks its thread for a minute: only termination can stop it.
    const stuck = pool.run({ ms: 60_000 }, [], ac.signal);
    setTimeout(() => ac.abort(new Error('too slow')), 200);
    await expect(stuck).rejects.toMatchObject({ code: 'JOB_ABORTED', message: expect.stringContaining('too slow') });
    const next = await pool.run({ ms: 1 });
    expect(next.thread).not.toBe(first.thread);
    expect(pool.size).toBe(1);
  }, 30_000);

  it('withdraws a queued task whose signal aborts without running it', async () => {
    pool = new WorkerPool({ workerUrl, size: 1 });
    const busy = pool.run({ ms: 300 });
    const ac = new AbortController();
    const queued = pool.run({ ms: 60_000 }, [], ac.signal);
    ac.abort();
    await expect(queued).rejects.toMatchObject({ code: 'JOB_ABORTED' });
    await expect(busy).resolves.toMatchObject({ length: 0 });
    await expect(pool.run({ ms: 1 })).resolves.toMatchObject({ length: 0 });
  }, 30_000);

  it('rejects running and queued tasks when closed', async () => {
    pool = new WorkerPool({ workerUrl, size: 1 });
    const running = pool.run({ ms: 60_000 });
    const queued = pool.run({ ms: 1 });
    const settled = Promise.allSettled([running, queued]);
    await new Promise((r) => setTimeout(r, 100));
    await pool.close();
    const [r, q] = await settled;
    expect(r).toMatchObject({ status: 'rejected', reason: { code: 'JOB_ABORTED' } });
    expect(q).toMatchObject({ status: 'rejected', reason: { code: 'JOB_ABORTED' } });
    await expect(pool.run({ ms: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  }, 30_000);
});
