import { afterEach, describe, expect, it } from 'vitest';
import { ProcessPool } from '../../src/runtime/process-pool.js';
import { probeUrl, workerUrl, type Probe, type ProbeResult, type Result, type Task } from '../support/pool-fixtures.js';

// How quickly the pool ends a runaway process: timed, so run in the timing phase.
describe('ProcessPool, in time', () => {
  let pool: ProcessPool<Task, Result> | undefined;
  let probes: ProcessPool<Probe, ProbeResult> | undefined;
  afterEach(async () => {
    await pool?.close();
    await probes?.close();
    pool = undefined;
    probes = undefined;
  });

  it.runIf(process.platform === 'linux')(
    'kills a process whose resident memory goes over the limit, outside the heap too',
    async () => {
      probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe', memoryLimitMb: 300 });
      const t0 = Date.now();
      await expect(probes.run({ word: 'native', ms: 1 })).rejects.toMatchObject({
        code: 'DOCUMENT_TOO_LARGE',
        message: 'the probe process went over its memory limit of 300 MB',
      });
      expect(Date.now() - t0).toBeLessThan(20_000);
      await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
    },
    60_000,
  );

  it('kills a process whose task runs past the time limit with NODE_TIMEOUT', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe', taskTimeoutMs: 500 });
    const t0 = Date.now();
    await expect(probes.run({ word: 'loop', ms: 1 })).rejects.toMatchObject({
      code: 'NODE_TIMEOUT',
      message: 'the probe process did not finish the task within 500 ms',
    });
    expect(Date.now() - t0).toBeLessThan(5_000);
    await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
  }, 30_000);

  it('kills the process of a running task whose signal aborts, within a moment', async () => {
    pool = new ProcessPool({ workerUrl, size: 1, name: 'busy' });
    const first = await pool.run({ ms: 1 });
    const ac = new AbortController();
    // Blocks its process for a minute: only killing it can stop it.
    const stuck = pool.run({ ms: 60_000 }, ac.signal);
    setTimeout(() => ac.abort(new Error('too slow')), 200);
    const t0 = Date.now();
    await expect(stuck).rejects.toMatchObject({ code: 'JOB_ABORTED', message: expect.stringContaining('too slow') });
    expect(Date.now() - t0).toBeLessThan(1_000);
    const next = await pool.run({ ms: 1 });
    expect(next.pid).not.toBe(first.pid);
  }, 30_000);
});
