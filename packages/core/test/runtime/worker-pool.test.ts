import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isQuarryError } from '../../src/errors.js';
import { WorkerPool } from '../../src/runtime/worker-pool.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const workerUrl = new URL('../support/busy-worker.ts', import.meta.url);
const probeUrl = new URL('../support/probe-worker.ts', import.meta.url);
type Task = { ms: number; bytes?: Uint8Array };
type Result = { thread: number; length: number };
type Probe = { word: string; ms: number };
type ProbeResult = { word: string; thread: number };

describe('WorkerPool', () => {
  let pool: WorkerPool<Task, Result> | undefined;
  let probes: WorkerPool<Probe, ProbeResult> | undefined;
  afterEach(async () => {
    await pool?.close();
    await probes?.close();
    pool = undefined;
    probes = undefined;
  });

  it('runs tasks on every worker thread in parallel', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 3 });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((word) => probes!.run({ word, ms: 150 })));
    expect(results.map((r) => r.word)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(new Set(results.map((r) => r.thread)).size).toBe(3);
  }, 30_000);

  it('fails a task alone with the coded error its worker reports', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 2 });
    const [ok, bad, plain] = await Promise.allSettled([probes.run({ word: 'x', ms: 1 }), probes.run({ word: 'fail', ms: 1 }), probes.run({ word: 'oops', ms: 1 })]);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { word: 'X' } });
    const e = (bad as PromiseRejectedResult).reason as Error;
    expect(isQuarryError(e) && e.code).toBe('FILE_UNREADABLE');
    expect(e).toMatchObject({ message: 'cannot read fail', details: { word: 'fail' } });
    // Any other throw is a failed node, with its message.
    expect((plain as PromiseRejectedResult).reason).toMatchObject({ code: 'NODE_FAILED', message: 'not a word' });
  }, 30_000);

  it('replaces a worker that dies: only its task fails, and later tasks still run', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const crashed = probes.run({ word: 'crash', ms: 1 });
    const after = probes.run({ word: 'next', ms: 1 });
    await expect(crashed).rejects.toMatchObject({ code: 'NODE_FAILED', message: 'a probe worker stopped: exit code 3' });
    await expect(after).resolves.toMatchObject({ word: 'NEXT' });
    expect(probes.size).toBe(1);
  }, 30_000);

  it('fails the running task of a worker killed by an uncaught exception, and replaces the worker', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const first = await probes.run({ word: 'a', ms: 1 });
    // The exception is thrown while the task still waits: it ends the thread under the task.
    await expect(probes.run({ word: 'uncaught', ms: 60_000 })).rejects.toMatchObject({
      code: 'NODE_FAILED',
      message: expect.stringMatching(/^a probe worker stopped: .*boom outside the task/),
    });
    const next = await probes.run({ word: 'b', ms: 1 });
    expect(next.word).toBe('B');
    expect(next.thread).not.toBe(first.thread);
  }, 30_000);

  it('fails the task of a worker that runs out of heap (resourceLimits), and replaces the worker', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 1, name: 'probe', resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
    await expect(probes.run({ word: 'oom', ms: 1 })).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringMatching(/^a probe worker stopped: .*memory/i) });
    await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
    expect(probes.size).toBe(1);
  }, 60_000);

  it('fails a task whose result cannot be cloned back, and replaces its worker', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    await expect(probes.run({ word: 'clone', ms: 1 })).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringMatching(/^a probe worker stopped: .*cannot be cloned/) });
    await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
  }, 30_000);

  it('rejects a task that cannot be sent to a worker, and runs the next one', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const unsendable = { word: 'fn', ms: 1, call: () => 1 } as Probe;
    await expect(probes.run(unsendable)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/^the task cannot be sent to a probe worker: .*could not be cloned/) });
    await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
  }, 30_000);

  it('moves transferred buffers to the worker instead of copying them', async () => {
    pool = new WorkerPool({ workerUrl, size: 1 });
    const bytes = new Uint8Array(1024);
    const r = await pool.run({ ms: 1, bytes }, [bytes.buffer]);
    expect(r.length).toBe(1024);
    // Transferred: the sender's buffer is detached.
    expect(bytes.byteLength).toBe(0);
  }, 30_000);

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

  it('runs queued tasks first-come first-served', async () => {
    probes = new WorkerPool({ workerUrl: probeUrl, size: 1 });
    const order: string[] = [];
    const ac = new AbortController();
    // Tasks with and without a signal share one queue.
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((word, i) => probes!.run({ word, ms: 20 }, [], i % 2 ? ac.signal : undefined).then((r) => order.push(r.word))));
    expect(order).toEqual(['A', 'B', 'C', 'D', 'E']);
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

  it('fails every task with the reason when the worker module cannot load, without crashing the pool', async () => {
    probes = new WorkerPool({ workerUrl: new URL('../support/no-such-worker.ts', import.meta.url), size: 1 });
    await expect(probes.run({ word: 'a', ms: 1 })).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringContaining('no-such-worker') });
    await expect(probes.run({ word: 'b', ms: 1 })).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringContaining('no-such-worker') });
  }, 30_000);

  it('lets the process exit while its workers are idle', () => {
    // A script that runs one task and never closes its pool: the process must still end.
    const script = fileURLToPath(new URL('../support/idle-pool-script.ts', import.meta.url));
    const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('done 7');
  }, 70_000);
});
