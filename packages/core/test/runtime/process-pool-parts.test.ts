import { afterEach, describe, expect, it } from 'vitest';
import { ProcessPool } from '../../src/runtime/process-pool.js';
import type { Part, PartsResult, PartsTask } from '../support/parts-worker.js';

const partsUrl = new URL('../support/parts-worker.ts', import.meta.url);

/** Holds this process's event loop for `ms`: long enough for a timer set before to be due. */
function block(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('ProcessPool results in parts', () => {
  let pool: ProcessPool<PartsTask, PartsResult, Part> | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('hands each part to onPart in its own message, and lets the event loop turn before the next comes', async () => {
    pool = new ProcessPool({ workerUrl: partsUrl, size: 1 });
    const events: string[] = [];
    const result = await pool.run(
      { count: 6, bytes: 64 * 1024 },
      {
        onPart: (part) => {
          events.push(`part ${part.index} ${part.filler.length}`);
          // A timer due before the next part would come: it fires first, so the loop turned between the two.
          setTimeout(() => events.push('timer'), 0);
          block(5);
        },
      },
    );
    events.push('result');
    expect(result.rest.map((p) => p.index)).toEqual([5]);
    expect(events).toEqual([
      'part 0 65536',
      'timer',
      'part 1 65536',
      'timer',
      'part 2 65536',
      'timer',
      'part 3 65536',
      'timer',
      'part 4 65536',
      'timer',
      'result',
    ]);
  }, 30_000);

  it('gives the task function no part sender when the caller takes no parts: the whole result comes at once', async () => {
    pool = new ProcessPool({ workerUrl: partsUrl, size: 1 });
    const result = await pool.run({ count: 3, bytes: 10 });
    expect(result.rest.map((p) => p.index)).toEqual([0, 1, 2]);
  }, 30_000);

  it('fails a task whose process dies mid-stream with DOCUMENT_CRASHED, and runs the next in a new process', async () => {
    pool = new ProcessPool({ workerUrl: partsUrl, size: 1, name: 'parts' });
    const first = await pool.run({ count: 1, bytes: 1 });
    const received: number[] = [];
    const crashed = pool.run({ count: 10, bytes: 1024, crashAfter: 3 }, { onPart: (part) => received.push(part.index) });
    await expect(crashed).rejects.toMatchObject({ code: 'DOCUMENT_CRASHED', message: 'the parts process exited with code 3' });
    // What arrived is not presented as the result: the promise rejected, with three of ten parts in.
    expect(received).toEqual([0, 1, 2]);
    const next = await pool.run({ count: 2, bytes: 1 }, { onPart: () => undefined });
    expect(next.pid).not.toBe(first.pid);
  }, 30_000);

  it('stops a withdrawn task mid-stream: no part arrives after the abort, and its process serves the next task', async () => {
    pool = new ProcessPool({ workerUrl: partsUrl, size: 1, abortGraceMs: 30_000 });
    const first = await pool.run({ count: 1, bytes: 1 });
    const ac = new AbortController();
    const received: number[] = [];
    const withdrawn = pool.run(
      { count: 10, bytes: 1024 },
      {
        signal: ac.signal,
        onPart: (part) => {
          received.push(part.index);
          if (part.index === 2) ac.abort(new Error('gave up'));
        },
      },
    );
    await expect(withdrawn).rejects.toMatchObject({ code: 'JOB_ABORTED', message: expect.stringContaining('gave up') });
    // The process stopped on the abort (its part sender rejected) long before the 30 s grace period.
    const next = await pool.run({ count: 2, bytes: 1 }, { onPart: () => undefined });
    expect(next.pid).toBe(first.pid);
    expect(received).toEqual([0, 1, 2]);
  }, 20_000);

  it('withdraws a task with NODE_FAILED when onPart throws', async () => {
    pool = new ProcessPool({ workerUrl: partsUrl, size: 1, name: 'parts', abortGraceMs: 30_000 });
    const refused = pool.run(
      { count: 5, bytes: 16 },
      {
        onPart: () => {
          throw new Error('no room');
        },
      },
    );
    await expect(refused).rejects.toMatchObject({ code: 'NODE_FAILED', message: "a part of the parts process's result was refused: no room" });
  }, 30_000);
});
