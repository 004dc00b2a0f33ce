import { spawnSync } from 'node:child_process';
import { getPriority } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isQuarryError } from '../../src/errors.js';
import { backgroundNiceness } from '../../src/runtime/background-priority.js';
import { ProcessPool } from '../../src/runtime/process-pool.js';
import { sleep } from '../../src/index.js';
import { probeUrl, workerUrl, type Probe, type ProbeResult, type Result, type Task } from '../support/pool-fixtures.js';
import { WARM_UP_STEPS } from '../support/probe-worker.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Whether this process may raise a child's priority back (root, CAP_SYS_NICE or RLIMIT_NICE). */
function canRaisePriority(): boolean {
  const script = "const os = require('node:os'); const p = os.getPriority(); os.setPriority(p + 1); try { os.setPriority(p); } catch { process.exit(1); }";
  return spawnSync(process.execPath, ['-e', script]).status === 0;
}

/** Polls a condition every 50 ms until it holds (the test's own timeout bounds the wait). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(50);
}

describe('ProcessPool', () => {
  let pool: ProcessPool<Task, Result> | undefined;
  let probes: ProcessPool<Probe, ProbeResult> | undefined;
  afterEach(async () => {
    await pool?.close();
    await probes?.close();
    pool = undefined;
    probes = undefined;
  });

  it('runs tasks in every process in parallel, none of them this one', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 3 });
    const results = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((word) => probes!.run({ word, ms: 300 })));
    expect(results.map((r) => r.word)).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    const pids = new Set(results.map((r) => r.pid));
    expect(pids.size).toBe(3);
    expect(pids.has(process.pid)).toBe(false);
    expect(probes.size).toBe(3);
  }, 60_000);

  it('starts every process at once when warmed, and uses them', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 2 });
    expect(probes.size).toBe(0);
    probes.warm();
    expect(probes.size).toBe(2);
    const results = await Promise.all(['a', 'b'].map((word) => probes!.run({ word, ms: 300 })));
    expect(new Set(results.map((r) => r.pid)).size).toBe(2);
    expect(probes.size).toBe(2);
  }, 30_000);

  it('reuses its processes across tasks', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1 });
    const a = await probes.run({ word: 'a', ms: 1 });
    const b = await probes.run({ word: 'b', ms: 1 });
    expect(b.pid).toBe(a.pid);
  }, 30_000);

  it('fails a task alone with the coded error its worker reports', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 2 });
    const [ok, bad, plain] = await Promise.allSettled([
      probes.run({ word: 'x', ms: 1 }),
      probes.run({ word: 'fail', ms: 1 }),
      probes.run({ word: 'oops', ms: 1 }),
    ]);
    expect(ok).toMatchObject({ status: 'fulfilled', value: { word: 'X' } });
    const e = (bad as PromiseRejectedResult).reason as Error;
    expect(isQuarryError(e) && e.code).toBe('FILE_UNREADABLE');
    expect(e).toMatchObject({ message: 'cannot read fail', details: { word: 'fail' } });
    // Any other throw is a failed node, with its message.
    expect((plain as PromiseRejectedResult).reason).toMatchObject({ code: 'NODE_FAILED', message: 'not a word' });
  }, 30_000);

  it('fails the task of a process that exits with DOCUMENT_CRASHED, and runs the next task in a new process', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const crashed = probes.run({ word: 'crash', ms: 1 });
    const after = probes.run({ word: 'next', ms: 1 });
    await expect(crashed).rejects.toMatchObject({ code: 'DOCUMENT_CRASHED', message: 'the probe process exited with code 3', details: { exit_code: 3 } });
    await expect(after).resolves.toMatchObject({ word: 'NEXT' });
  }, 30_000);

  it('fails the task of a process killed by a signal (a native crash) with DOCUMENT_CRASHED', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const first = await probes.run({ word: 'a', ms: 1 });
    await expect(probes.run({ word: 'segv', ms: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_CRASHED',
      message: expect.stringMatching(/^the probe process was killed by SIGSEGV/),
      details: { signal: 'SIGSEGV' },
    });
    const next = await probes.run({ word: 'b', ms: 1 });
    expect(next.pid).not.toBe(first.pid);
  }, 30_000);

  it('fails the running task of a process that throws outside it, naming the exception', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    await expect(probes.run({ word: 'uncaught', ms: 60_000 })).rejects.toMatchObject({
      code: 'DOCUMENT_CRASHED',
      message: 'the probe process exited with code 70: uncaught exception: boom outside the task',
    });
    await expect(probes.run({ word: 'b', ms: 1 })).resolves.toMatchObject({ word: 'B' });
  }, 30_000);

  it('lets a task finish despite a stray unhandled rejection in its process', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const first = await probes.run({ word: 'rejection', ms: 50 });
    expect(first.word).toBe('REJECTION');
    expect((await probes.run({ word: 'b', ms: 1 })).pid).toBe(first.pid);
  }, 30_000);

  it('fails the task of a process that exhausts its heap with DOCUMENT_TOO_LARGE', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe', heapLimitMb: 64 });
    await expect(probes.run({ word: 'oom', ms: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_TOO_LARGE',
      message: 'the probe process ran out of memory (heap limit 64 MB)',
    });
    await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
  }, 60_000);

  it("runs its processes with Node's own heap limit unless given one, and names the limit a process ran out of", async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const plain = await probes.run({ word: 'heap', ms: 1 });
    expect(plain.heapLimitMb).toBe(Math.round(getHeapStatistics().heap_size_limit / 2 ** 20));
    await probes.close();
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe', heapLimitMb: 200 });
    expect((await probes.run({ word: 'heap', ms: 1 })).heapLimitMb).toBeLessThan(plain.heapLimitMb!);
    await probes.close();
    // A limit the pool did not set (here through execArgv) is the one the process reported.
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe', execArgv: ['--max-old-space-size=64'] });
    const { heapLimitMb } = await probes.run({ word: 'heap', ms: 1 });
    await expect(probes.run({ word: 'oom', ms: 1 })).rejects.toMatchObject({
      code: 'DOCUMENT_TOO_LARGE',
      message: `the probe process ran out of memory (heap limit ${heapLimitMb} MB)`,
      details: { heap_limit_mb: heapLimitMb },
    });
  }, 60_000);

  it('fails a task whose result cannot be serialized, and keeps its process', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const first = await probes.run({ word: 'a', ms: 1 });
    await expect(probes.run({ word: 'clone', ms: 1 })).rejects.toMatchObject({
      code: 'NODE_FAILED',
      message: expect.stringMatching(/^the result cannot be sent back: .*could not be cloned/),
    });
    expect((await probes.run({ word: 'after', ms: 1 })).pid).toBe(first.pid);
  }, 30_000);

  it('rejects a task that cannot be sent to a process, and runs the next one', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe' });
    const unsendable = { word: 'fn', ms: 1, call: () => 1 } as Probe;
    await expect(probes.run(unsendable)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/^the task cannot be sent to a probe process: .*could not be cloned/),
    });
    await expect(probes.run({ word: 'after', ms: 1 })).resolves.toMatchObject({ word: 'AFTER' });
  }, 30_000);

  it('carries bytes to the process and leaves the caller its copy', async () => {
    pool = new ProcessPool({ workerUrl, size: 1 });
    const bytes = new Uint8Array(3 * 1024 * 1024).fill(7);
    const r = await pool.run({ ms: 1, bytes });
    expect(r.length).toBe(3 * 1024 * 1024);
    expect(bytes[0]).toBe(7);
  }, 30_000);

  it('tells the process of a withdrawn task to stop, and keeps the process when it does', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, abortGraceMs: 30_000 });
    const first = await probes.run({ word: 'a', ms: 1 });
    const ac = new AbortController();
    const waiting = probes.run({ word: 'wait', ms: 0 }, { signal: ac.signal });
    const next = probes.run({ word: 'b', ms: 1 });
    setTimeout(() => ac.abort(new Error('gave up')), 200);
    await expect(waiting).rejects.toMatchObject({ code: 'JOB_ABORTED', message: expect.stringContaining('gave up') });
    // The next task ran in the same process: it stopped on the message, long before the grace period.
    await expect(next).resolves.toMatchObject({ word: 'B', pid: first.pid });
  }, 30_000);

  it('replaces a process after maxTasksPerProcess tasks', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, maxTasksPerProcess: 2 });
    const pids: number[] = [];
    for (const word of ['a', 'b', 'c', 'd']) pids.push((await probes.run({ word, ms: 1 })).pid);
    expect(pids[1]).toBe(pids[0]);
    expect(pids[2]).not.toBe(pids[0]);
    expect(pids[3]).toBe(pids[2]);
  }, 30_000);

  it('ends a process idle for idleTimeoutMs after work; a warmed pool starts a fresh one in its place', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, idleTimeoutMs: 300 });
    await probes.run({ word: 'a', ms: 1 });
    expect(probes.size).toBe(1);
    await until(() => probes!.size === 0);
    const warm = new ProcessPool<Probe, ProbeResult>({ workerUrl: probeUrl, size: 1, idleTimeoutMs: 300 });
    try {
      warm.warm();
      const [fresh] = warm.pids;
      const used = await warm.run({ word: 'b', ms: 1 });
      expect(used.pid).toBe(fresh);
      await until(() => warm.pids.length === 1 && warm.pids[0] !== fresh);
      // The fresh process has done nothing: it is kept, not recycled in turn.
      const [replacement] = warm.pids;
      await sleep(900);
      expect(warm.pids).toEqual([replacement]);
      expect((await warm.run({ word: 'c', ms: 1 })).pid).toBe(replacement);
    } finally {
      await warm.close();
    }
  }, 30_000);

  it('starts small tasks in the small lane while big ones hold every other process, and never a big one there', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10 } });
    const done: string[] = [];
    const track = (p: Promise<ProbeResult>) => p.then((r) => (done.push(r.word), r));
    const ac = new AbortController();
    // Holds the general process until aborted; the second big task waits for it.
    const big1 = probes.run({ word: 'wait', ms: 0 }, { signal: ac.signal, cost: 1000 }).catch(() => done.push('BIG1 withdrawn'));
    const [general] = probes.pids;
    const big2 = track(probes.run({ word: 'big2', ms: 1 }, { cost: 1000 }));
    const small = await Promise.all(['s1', 's2', 's3'].map((word) => track(probes!.run({ word, ms: 1 }, { cost: 10 }))));
    expect(done).toEqual(['S1', 'S2', 'S3']);
    expect(new Set(small.map((r) => r.pid)).size).toBe(1);
    expect(small[0]!.pid).not.toBe(general);
    ac.abort();
    await big1;
    // The queued big task ran in the general process once it was free, not in the idle lane.
    expect((await big2).pid).toBe(general);
    expect(done).toEqual(['S1', 'S2', 'S3', 'BIG1 withdrawn', 'BIG2']);
  }, 30_000);

  it('a warmed pool starts the lane too and warms it up, and replaces a recycled lane process before small work comes', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, maxTasksPerProcess: 2, smallLane: { maxCost: 10 } });
    // Not warmed: processes start on demand and run no warm-up.
    expect((await probes.run({ word: 'warmed', ms: 0 })).warmedUp).toBe(false);
    await probes.close();
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, maxTasksPerProcess: 2, smallLane: { maxCost: 10 } });
    probes.warm();
    const [general, lane, spare] = probes.pids;
    // The general process, the lane's and the lane's warm spare.
    expect(probes.pids).toHaveLength(3);
    await probes.warmedUp();
    // The general process starts but does not warm up: only the lane does.
    expect(await probes.run({ word: 'warmed', ms: 0 }, { cost: 1000 })).toMatchObject({ pid: general, warmedUp: false });
    const holdBig = new AbortController();
    const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
    const first = await probes.run({ word: 'warmed', ms: 0 }, { cost: 1 });
    expect(first).toMatchObject({ pid: lane, warmedUp: true, lightWarmUps: [false] });
    // Its second task ends the lane process's share: the spare takes its place with no small task
    // waiting, and a fresh spare starts behind it. The spare warmed up light, and again, fully,
    // when it joined the lane.
    expect((await probes.run({ word: 'b', ms: 0 }, { cost: 1 })).pid).toBe(lane);
    await until(() => probes!.pids.length === 3 && !probes!.pids.includes(lane!));
    await probes.warmedUp();
    expect(await probes.run({ word: 'warmed', ms: 0 }, { cost: 1 })).toMatchObject({ pid: spare, warmedUp: true, lightWarmUps: [true, false] });
    holdBig.abort();
    expect(await big).toBe('withdrawn');
  }, 30_000);

  it('warms one lane process fully and the others light, and warms a light one fully when the full one ends', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, maxTasksPerProcess: 1, smallLane: { maxCost: 10, processes: 2 } });
    probes.warm();
    // Two lane processes, no spare (a hand-off leaves the other serving).
    const [general, first, second] = probes.pids;
    expect(probes.pids).toHaveLength(3);
    await probes.warmedUp();
    const holdBig = new AbortController();
    const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
    // Two small tasks at once, one in each lane process; each process ends after its one task.
    const answers = await Promise.all([probes.run({ word: 'warmed', ms: 50 }, { cost: 1 }), probes.run({ word: 'warmed', ms: 50 }, { cost: 1 })]);
    expect(Object.fromEntries(answers.map((a) => [a.pid, a.lightWarmUps]))).toEqual({ [first!]: [false], [second!]: [true] });
    // Their replacements: again one full and one light.
    await until(() => probes!.pids.length === 3 && !probes!.pids.includes(first!) && !probes!.pids.includes(second!));
    await probes.warmedUp();
    const next = await Promise.all([probes.run({ word: 'warmed', ms: 50 }, { cost: 1 }), probes.run({ word: 'warmed', ms: 50 }, { cost: 1 })]);
    expect(next.map((a) => a.lightWarmUps).sort()).toEqual([[false], [true]]);
    expect(probes.pids).toContain(general);
    holdBig.abort();
    expect(await big).toBe('withdrawn');
  }, 30_000);

  it("a lane process's warm-up waits while a task runs", async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10 } });
    probes.warm();
    const [general, lane, spare] = probes.pids;
    const holdBig = new AbortController();
    const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
    // 300 ms is 60 warm-up steps of 5 ms: at most the step under way when the task came goes on.
    const during = await probes.run({ word: 'steps', ms: 300 }, { cost: 1 });
    expect(during.pid).toBe(lane);
    expect(during.steps![1] - during.steps![0]).toBeLessThanOrEqual(1);
    await probes.warmedUp();
    expect((await probes.run({ word: 'steps', ms: 0 }, { cost: 1 })).steps).toEqual([WARM_UP_STEPS, WARM_UP_STEPS]);
    expect(probes.pids).toEqual([general, lane, spare]);
    holdBig.abort();
    expect(await big).toBe('withdrawn');
  }, 30_000);

  it('a warmed pool without a spare starts the next lane process as soon as a lane task is handed off', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10, handoffMs: 200, standby: false } });
    probes.warm();
    const [general, lane] = probes.pids;
    expect(probes.pids).toHaveLength(2);
    const holdBig = new AbortController();
    const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
    const holdLong = new AbortController();
    const long = probes.run({ word: 'spin', ms: 0 }, { signal: holdLong.signal, cost: 1 }).catch(() => 'withdrawn');
    // No small task waits, yet a third process starts once the spinning one has worked its 200 ms.
    await until(() => probes!.pids.length === 3);
    const fresh = probes.pids.find((p) => p !== general && p !== lane)!;
    expect(await probes.run({ word: 'warmed', ms: 0 }, { cost: 1 })).toMatchObject({ pid: fresh, warmedUp: true });
    holdLong.abort();
    holdBig.abort();
    expect([await long, await big]).toEqual(['withdrawn', 'withdrawn']);
  }, 30_000);

  it('hands a lane task that says it is heavy off the lane at once, without waiting for its work', async () => {
    // handoffMs 0: work never hands off, so only the notice can free the lane.
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10, handoffMs: 0 } });
    const holdBig = new AbortController();
    const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
    const [general] = probes.pids;
    const holdHeavy = new AbortController();
    const heavy = probes.run({ word: 'heavy', ms: 0 }, { signal: holdHeavy.signal, cost: 1 }).catch(() => 'withdrawn');
    await until(() => probes!.pids.length === 2);
    const heavyProcess = probes.pids[1]!;
    // The heavy task still runs, and the next small task starts in another lane process.
    const quick = await probes.run({ word: 'quick', ms: 1 }, { cost: 1 });
    expect([general, heavyProcess]).not.toContain(quick.pid);
    expect(probes.pids).toEqual([general, heavyProcess, quick.pid]);
    holdHeavy.abort();
    expect(await heavy).toBe('withdrawn');
    // The handed-off process is ended after its task; the other one stays the lane's.
    await until(() => !probes!.pids.includes(heavyProcess));
    expect(probes.pids).toEqual([general, quick.pid]);
    holdBig.abort();
    expect(await big).toBe('withdrawn');
  }, 30_000);

  it("does not count a lane process's own setup (an engine starting) as its task's work", async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10, handoffMs: 200, standby: false } });
    // Warmed, so that loading the worker module is not counted as the first task's work either.
    probes.warm();
    await probes.warmedUp();
    const [general, lane] = probes.pids;
    const holdBig = new AbortController();
    const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
    // Three times the hand-off time of CPU, all of it setup: the process stays the lane's.
    const setup = await probes.run({ word: 'setup', ms: 600 }, { cost: 1 });
    expect(setup.pid).toBe(lane);
    expect(setup.cpuMs).toBeGreaterThanOrEqual(600);
    expect(probes.pids).toEqual([general, lane]);
    expect((await probes.run({ word: 'next', ms: 1 }, { cost: 1 })).pid).toBe(lane);
    // Work that is not setup still hands off: the spinning task's process leaves the lane.
    const holdLong = new AbortController();
    const long = probes.run({ word: 'spin', ms: 0 }, { signal: holdLong.signal, cost: 1 }).catch(() => 'withdrawn');
    const quick = await probes.run({ word: 'quick', ms: 1 }, { cost: 1 });
    expect([general, lane]).not.toContain(quick.pid);
    holdLong.abort();
    holdBig.abort();
    expect([await long, await big]).toEqual(['withdrawn', 'withdrawn']);
  }, 30_000);

  it('hands off as many heavy lane tasks at a time as there are general processes', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 2, smallLane: { maxCost: 10, handoffMs: 0 } });
    const hold = new AbortController();
    const bigs = ['wait', 'wait'].map((word) => probes!.run({ word, ms: 0 }, { signal: hold.signal, cost: 1000 }).catch(() => 'withdrawn'));
    const generals = [...probes.pids];
    const first = probes.run({ word: 'heavy', ms: 0 }, { signal: hold.signal, cost: 1 }).catch(() => 'withdrawn');
    await until(() => probes!.pids.length === 3);
    const second = probes.run({ word: 'heavy', ms: 0 }, { signal: hold.signal, cost: 1 }).catch(() => 'withdrawn');
    await until(() => probes!.pids.length === 4);
    const heavies = probes.pids.slice(2);
    // Both heavy tasks run on, each in a process of its own, and small work still finds a lane process.
    const quick = await probes.run({ word: 'quick', ms: 1 }, { cost: 1 });
    expect([...generals, ...heavies]).not.toContain(quick.pid);
    hold.abort();
    expect(await Promise.all([...bigs, first, second])).toEqual(['withdrawn', 'withdrawn', 'withdrawn', 'withdrawn']);
  }, 30_000);

  it.skipIf(process.platform !== 'linux')(
    'a warmed pool keeps a warm spare lane process at background priority and promotes it when a heavy task hands off',
    async () => {
      probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10, handoffMs: 0, background: true } });
      probes.warm();
      const [general, lane, spare] = probes.pids;
      expect(probes.pids).toHaveLength(3);
      await probes.warmedUp();
      await until(() => getPriority(spare!) === backgroundNiceness());
      expect(getPriority(lane!)).toBe(getPriority());
      const holdBig = new AbortController();
      const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
      // The spare takes no small work while the lane is free.
      expect((await probes.run({ word: 'a', ms: 1 }, { cost: 1 })).pid).toBe(lane);
      const holdHeavy = new AbortController();
      const heavy = probes.run({ word: 'heavy', ms: 0 }, { signal: holdHeavy.signal, cost: 1 }).catch(() => 'withdrawn');
      // Handed off: the spare is promoted (raised to this process's priority where the system
      // allows it) and a new spare starts behind it.
      await until(() => probes!.pids.length === 4);
      const quick = await probes.run({ word: 'warmed', ms: 0 }, { cost: 1 });
      expect(quick).toMatchObject({ pid: spare, warmedUp: true });
      if (canRaisePriority()) expect(getPriority(spare!)).toBe(getPriority());
      expect(getPriority(lane!)).toBe(backgroundNiceness());
      const next = probes.pids.find((p) => ![general, lane, spare].includes(p))!;
      await until(() => getPriority(next) === backgroundNiceness());
      holdHeavy.abort();
      expect(await heavy).toBe('withdrawn');
      await until(() => !probes!.pids.includes(lane!));
      expect(probes.pids).toEqual([general, spare, next]);
      holdBig.abort();
      expect(await big).toBe('withdrawn');
    },
    30_000,
  );

  it.skipIf(process.platform !== 'linux')(
    'runs the other processes at background priority, and hands a lane task that works past its time to a fresh lane process',
    async () => {
      probes = new ProcessPool({ workerUrl: probeUrl, size: 1, smallLane: { maxCost: 10, handoffMs: 200, background: true } });
      const holdBig = new AbortController();
      const big = probes.run({ word: 'wait', ms: 0 }, { signal: holdBig.signal, cost: 1000 }).catch(() => 'withdrawn');
      const [general] = probes.pids;
      await until(() => getPriority(general!) === backgroundNiceness());
      // Small in cost, long in work: it burns CPU in the lane's one process until it is withdrawn.
      const holdLong = new AbortController();
      const long = probes.run({ word: 'spin', ms: 0 }, { signal: holdLong.signal, cost: 1 }).catch(() => 'withdrawn');
      await until(() => probes!.pids.length === 2);
      const laneProcess = probes.pids[1]!;
      expect(getPriority(laneProcess)).toBe(getPriority());
      await until(() => getPriority(laneProcess) === backgroundNiceness());
      // Handed off: the next small task starts in a fresh lane process, at normal priority.
      const quick = await probes.run({ word: 'quick', ms: 1 }, { cost: 1 });
      expect([general, laneProcess]).not.toContain(quick.pid);
      expect(getPriority(quick.pid)).toBe(getPriority());
      holdLong.abort();
      expect(await long).toBe('withdrawn');
      // The handed-off process is ended after its task; the fresh one stays the lane's.
      await until(() => !probes!.pids.includes(laneProcess));
      expect(probes.pids).toContain(quick.pid);
      holdBig.abort();
      await big;
    },
    30_000,
  );

  it('withdraws a queued task whose signal aborts without running it', async () => {
    pool = new ProcessPool({ workerUrl, size: 1 });
    const busy = pool.run({ ms: 300 });
    const ac = new AbortController();
    const queued = pool.run({ ms: 60_000 }, ac.signal);
    ac.abort();
    await expect(queued).rejects.toMatchObject({ code: 'JOB_ABORTED' });
    await expect(busy).resolves.toMatchObject({ length: 0 });
    await expect(pool.run({ ms: 1 })).resolves.toMatchObject({ length: 0 });
  }, 30_000);

  it('runs queued tasks first-come first-served', async () => {
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1 });
    const order: string[] = [];
    const ac = new AbortController();
    // Tasks with and without a signal share one queue.
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((word, i) => probes!.run({ word, ms: 20 }, i % 2 ? ac.signal : undefined).then((r) => order.push(r.word))));
    expect(order).toEqual(['A', 'B', 'C', 'D', 'E']);
  }, 30_000);

  it('rejects running and queued tasks when closed', async () => {
    pool = new ProcessPool({ workerUrl, size: 1 });
    const running = pool.run({ ms: 60_000 });
    const queued = pool.run({ ms: 1 });
    const settled = Promise.allSettled([running, queued]);
    await sleep(300);
    await pool.close();
    const [r, q] = await settled;
    expect(r).toMatchObject({ status: 'rejected', reason: { code: 'JOB_ABORTED' } });
    expect(q).toMatchObject({ status: 'rejected', reason: { code: 'JOB_ABORTED' } });
    expect(pool.size).toBe(0);
    await expect(pool.run({ ms: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  }, 30_000);

  it('kills its processes when closed, and waits for their exit unless told not to', async () => {
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const twoPids = async (p: ProcessPool<Probe, ProbeResult>): Promise<number[]> =>
      (await Promise.all(['a', 'b'].map((word) => p.run({ word, ms: 200 })))).map((r) => r.pid);
    probes = new ProcessPool({ workerUrl: probeUrl, size: 2 });
    const waited = await twoPids(probes);
    await probes.close();
    // Exited and reaped: the pids are gone.
    expect(waited.filter(alive)).toEqual([]);
    probes = new ProcessPool({ workerUrl: probeUrl, size: 2 });
    const killed = await twoPids(probes);
    await probes.close({ waitForExit: false });
    // Killed, but not reaped: no event-loop turn has passed, so each (or its zombie) still has its pid.
    expect(killed.filter(alive)).toEqual(killed);
    expect(probes.size).toBe(0);
    await until(() => !killed.some(alive));
  }, 30_000);

  it('takes a prestarted process of the same command instead of starting one, and fails its crash alone', async () => {
    const other = ProcessPool.prestart({ workerUrl: probeUrl, heapLimitMb: 96 });
    const pid = ProcessPool.prestart({ workerUrl: probeUrl, heapLimitMb: 128 });
    expect(pid).toBeGreaterThan(0);
    probes = new ProcessPool({ workerUrl: probeUrl, size: 1, name: 'probe', heapLimitMb: 128 });
    expect((await probes.run({ word: 'a', ms: 1 })).pid).toBe(pid);
    await expect(probes.run({ word: 'crash', ms: 1 })).rejects.toMatchObject({ code: 'DOCUMENT_CRASHED' });
    // The process of another heap limit is left for a pool of its own.
    const next = await probes.run({ word: 'b', ms: 1 });
    expect([pid, other]).not.toContain(next.pid);
    const second = new ProcessPool<Probe, ProbeResult>({ workerUrl: probeUrl, size: 1, heapLimitMb: 96 });
    try {
      expect((await second.run({ word: 'c', ms: 1 })).pid).toBe(other);
    } finally {
      await second.close();
    }
  }, 30_000);

  it('fails every task with the reason when the worker module cannot load, without crashing the pool', async () => {
    probes = new ProcessPool({ workerUrl: new URL('../support/no-such-worker.ts', import.meta.url), size: 1 });
    await expect(probes.run({ word: 'a', ms: 1 })).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringContaining('no-such-worker') });
    await expect(probes.run({ word: 'b', ms: 1 })).rejects.toMatchObject({ code: 'NODE_FAILED', message: expect.stringContaining('no-such-worker') });
  }, 30_000);

  it('loads plain JavaScript from a vendor/ folder as written when its worker runs from TypeScript sources', async () => {
    // tsx would rewrite the dynamic import() and map the file, which took pdf.js seconds to load.
    const vendored = new ProcessPool<null, string>({ workerUrl: new URL('../support/vendored-worker.ts', import.meta.url), size: 1 });
    try {
      expect(await vendored.run(null)).toBe("() => import('node:os')");
    } finally {
      await vendored.close();
    }
  }, 30_000);

  it.each([
    ['lets the caller exit while its processes are idle', 'open', 'done SEVEN'],
    ['keeps the caller alive until close() has seen its processes end', 'close', 'done SEVEN'],
    ['keeps the caller alive through close() while a grandchild holds a process stderr', 'close-lingering', 'done LINGER'],
    ['keeps the caller alive until a crashed task settles while a grandchild holds its stderr', 'crash-lingering', 'failed DOCUMENT_CRASHED'],
    ['lets the caller exit with a prestarted process no pool took', 'prestart', 'done UNUSED'],
  ])(
    '%s',
    (_, mode, out) => {
      const script = fileURLToPath(new URL('../support/idle-pool-script.ts', import.meta.url));
      const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', script, mode], { cwd: repoRoot, encoding: 'utf8', timeout: 60_000 });
      expect(r.stderr).toBe('');
      expect(r.signal).toBeNull();
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(out);
    },
    70_000,
  );
});
