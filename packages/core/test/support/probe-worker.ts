import { spawn } from 'node:child_process';
import { getHeapStatistics } from 'node:v8';
import { QuarryError } from '../../src/errors.js';
import { sleep } from '../../src/runtime/sleep.js';
import type { WorkerTaskHandler, WorkerWarmUp } from '../../src/runtime/process-pool.js';
import { processSetup } from '../../src/runtime/process-setup.js';

/** The `light` option of each warm-up the pool asked for; the word "warmed" answers them. */
const warmUps: boolean[] = [];
/** Steps of the warm-up done. */
let warmSteps = 0;
export const WARM_UP_STEPS = 100;

/** What a warmed pool has its lane processes run first: steps of 5 ms, each after `untilIdle`. */
export const warmUp: WorkerWarmUp = async (untilIdle, { light }) => {
  warmUps.push(light);
  for (let i = 0; i < WARM_UP_STEPS; i++) {
    await untilIdle();
    await sleep(5);
    warmSteps++;
  }
};

/**
 * A worker for pool tests: answers the upper-cased word and its process id after `ms`. Some words
 * misbehave: "fail" throws a coded error, "oops" a plain one; "crash" exits, "segv" dies of a
 * signal, "uncaught" throws outside the task, "rejection" leaves a promise rejection unhandled,
 * "oom" fills the heap, "native" allocates outside the heap, "loop" never returns, "clone" answers
 * a result that cannot be serialized (a function), "heap" answers the process's heap limit in MB,
 * "wait" waits in steps of 10 ms until its signal aborts, then throws its reason; "heavy" first
 * tells the pool it will work long, then waits likewise; "spin" does the same burning CPU; "warmed" answers whether the process has run its warm-up, and the `light` option of each; "steps" answers the
 * warm-up steps done when it started and when it ended, `ms` later; "setup" burns `ms` of CPU as
 * the process's setup (`processSetup`) and answers the CPU ms it burnt.
 * "linger" and "linger-crash" first start a grandchild that holds this process's stderr open for a
 * second and a half, then answer or exit.
 */
const probe: WorkerTaskHandler<
  { word: string; ms: number },
  { word: string; pid: number; heapLimitMb?: number; warmedUp?: boolean; lightWarmUps?: boolean[]; steps?: [number, number]; cpuMs?: number }
> = async (task, signal, heavy) => {
  if (task.word === 'heavy') heavy();
  if (task.word === 'wait' || task.word === 'heavy') {
    while (!signal.aborted) await sleep(10);
    throw signal.reason;
  }
  if (task.word === 'spin') {
    while (!signal.aborted) {
      const until = performance.now() + 10;
      while (performance.now() < until);
      await new Promise((resume) => setImmediate(resume));
    }
    throw signal.reason;
  }
  if (task.word === 'setup') {
    const start = process.cpuUsage();
    const burnt = (): number => {
      const { user, system } = process.cpuUsage(start);
      return (user + system) / 1000;
    };
    await processSetup(async () => {
      while (burnt() < task.ms) {
        const until = performance.now() + 10;
        while (performance.now() < until);
        await new Promise((resume) => setImmediate(resume));
      }
    });
    return { word: 'SETUP', pid: process.pid, cpuMs: burnt() };
  }
  if (task.word === 'warmed') return { word: 'WARMED', pid: process.pid, warmedUp: warmUps.length > 0, lightWarmUps: warmUps };
  if (task.word === 'steps') {
    const before = warmSteps;
    await sleep(task.ms);
    return { word: 'STEPS', pid: process.pid, steps: [before, warmSteps] };
  }
  if (task.word === 'heap') return { word: 'HEAP', pid: process.pid, heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20) };
  if (task.word.startsWith('linger')) {
    spawn(process.execPath, ['-e', 'setTimeout(() => {}, 1500)'], { stdio: ['ignore', 'ignore', 'inherit'], detached: true }).unref();
    if (task.word === 'linger-crash') process.exit(3);
  }
  if (task.word === 'crash') process.exit(3);
  if (task.word === 'segv') process.kill(process.pid, 'SIGSEGV');
  if (task.word === 'uncaught')
    setTimeout(() => {
      throw new Error('boom outside the task');
    }, 0);
  if (task.word === 'rejection') void Promise.reject(new Error('nobody awaits this'));
  if (task.word === 'oom') {
    const hoard: number[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i));
  }
  if (task.word === 'native') {
    const hoard: Buffer[] = [];
    for (;;) {
      hoard.push(Buffer.alloc(16 * 1024 * 1024, 1));
      await sleep(5);
    }
  }
  if (task.word === 'loop') for (;;);
  await sleep(task.ms);
  if (task.word === 'fail') throw new QuarryError('FILE_UNREADABLE', 'cannot read fail', { details: { word: task.word } });
  if (task.word === 'oops') throw new TypeError('not a word');
  if (task.word === 'clone') return { word: 'CLONE', pid: process.pid, toString: () => 'not data' };
  return { word: task.word.toUpperCase(), pid: process.pid };
};

export default probe;
