import { describe, expect, it } from 'vitest';
import { createEngine, sleep, type Flow } from '../../src/index.js';
import { WriteBehindWindow, writeBehindOf } from '../../src/runtime/write-behind.js';
import { lineSplitter, memoryDestination, memorySource, planOf } from '../helpers.js';

/** A write the test ends by hand, and the record of when its slot was handed on. */
interface Gated {
  releases: number;
  end(): void;
  fail(e: Error): void;
  done: Promise<string>;
}

function start(window: WriteBehindWindow, name: string, log: string[]): Gated {
  let end!: () => void;
  let fail!: (e: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  const g: Gated = { releases: 0, end, fail, done: Promise.resolve('') };
  g.done = window.run(
    async () => {
      await gate;
      log.push(`wrote ${name}`);
      return name;
    },
    () => {
      g.releases++;
      log.push(`released ${name}`);
    },
  );
  return g;
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('WriteBehindWindow', () => {
  it('hands slots on at once up to its size; the documents after it write holding their slots', () => {
    const window = new WriteBehindWindow(2);
    const log: string[] = [];
    const writes = ['a', 'b', 'c', 'd'].map((n) => start(window, n, log));
    expect(log).toEqual(['released a', 'released b']);
    expect(window.writingBehind).toBe(2);
    expect(window.waiting).toBe(2);
    expect(writes.map((w) => w.releases)).toEqual([1, 1, 0, 0]);
  });

  it('slides: when a write behind ends, the oldest holder moves behind and hands its slot on', async () => {
    const window = new WriteBehindWindow(2);
    const log: string[] = [];
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => start(window, n, log));
    b!.end();
    await b!.done;
    expect(log).toEqual(['released a', 'released b', 'wrote b', 'released c']);
    a!.end();
    await a!.done;
    expect(log.slice(4)).toEqual(['wrote a', 'released d']);
    expect(window.writingBehind).toBe(2);
    expect(window.waiting).toBe(0);
    c!.end();
    d!.end();
    await Promise.all([c!.done, d!.done]);
    expect(window.writingBehind).toBe(0);
    expect([a, b, c, d].map((w) => w!.releases)).toEqual([1, 1, 1, 1]);
  });

  it('releases a holder whose write ends before a place behind frees, once, and takes it out of the queue', async () => {
    const window = new WriteBehindWindow(1);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => start(window, n, log));
    b!.end();
    await b!.done;
    expect(log).toEqual(['released a', 'wrote b', 'released b']);
    expect(window.waiting).toBe(1);
    a!.end();
    await a!.done;
    // c, not b, took a's place.
    expect(log.slice(3)).toEqual(['wrote a', 'released c']);
    c!.end();
    await c!.done;
    expect([a, b, c].map((w) => w!.releases)).toEqual([1, 1, 1]);
  });

  it('with size 0, hands a slot on only when its write has ended', async () => {
    const window = new WriteBehindWindow(0);
    const log: string[] = [];
    const a = start(window, 'a', log);
    await tick();
    expect(log).toEqual([]);
    expect(window.waiting).toBe(0);
    a.end();
    await a.done;
    expect(log).toEqual(['wrote a', 'released a']);
  });

  it('settles with the write, after the slot was handed on: the caller waits for every write behind', async () => {
    const window = new WriteBehindWindow(1);
    const log: string[] = [];
    const a = start(window, 'a', log);
    let settled = false;
    void a.done.then(() => (settled = true));
    await tick();
    expect(a.releases).toBe(1);
    expect(settled).toBe(false);
    a.end();
    expect(await a.done).toBe('a');
    expect(settled).toBe(true);
  });

  it('rethrows a failed write, frees its place behind for the next holder, and releases a failed holder once', async () => {
    const window = new WriteBehindWindow(1);
    const log: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((n) => start(window, n, log));
    a!.fail(new Error('disk full'));
    await expect(a!.done).rejects.toThrow('disk full');
    expect(log).toEqual(['released a', 'released b']);
    c!.fail(new Error('offline'));
    await expect(c!.done).rejects.toThrow('offline');
    expect(log.slice(2)).toEqual(['released c']);
    expect(window.waiting).toBe(0);
    b!.end();
    await b!.done;
    expect(window.writingBehind).toBe(0);
    expect([a, b, c].map((w) => w!.releases)).toEqual([1, 1, 1]);
  });

  it('takes the smallest window of a job’s destinations, whole and not negative', () => {
    const write = async (): Promise<void> => {};
    expect(writeBehindOf([])).toBe(0);
    expect(writeBehindOf([{ write }])).toBe(0);
    expect(
      writeBehindOf([
        { write, writeBehind: 64 },
        { write, writeBehind: 8.7 },
      ]),
    ).toBe(8);
    expect(writeBehindOf([{ write, writeBehind: 64 }, { write }])).toBe(0);
    expect(writeBehindOf([{ write, writeBehind: -3 }])).toBe(0);
  });
});

describe('write-behind in a job', () => {
  const engine = createEngine();

  it('ends only when every write behind has ended', async () => {
    const dest = memoryDestination();
    const open = new Map<string, () => void>();
    const gated = {
      ...dest,
      writeBehind: 4,
      async write(flow: Flow) {
        await new Promise<void>((r) => open.set(flow.document.record_id, r));
        await dest.write(flow);
      },
    };
    const job = engine.run(planOf([lineSplitter]), { source: memorySource(['a', 'b', 'c']), destination: gated, concurrency: 1 });
    let ended = false;
    void job.done.then(() => (ended = true));
    for (let i = 0; i < 200 && open.size < 3; i++) await sleep(2);
    expect(open.size).toBe(3); // all three writing behind one pull slot
    await sleep(20);
    expect(ended).toBe(false);
    for (const release of open.values()) release();
    const summary = await job.done;
    expect(summary.counts).toMatchObject({ total: 3, written: 3 });
    expect([...dest.writes].sort()).toEqual(['doc-0.txt', 'doc-1.txt', 'doc-2.txt']);
  });

  it('on cancel, lets the writes already running end and starts no other', async () => {
    const dest = memoryDestination();
    const open = new Map<string, () => void>();
    const signals: AbortSignal[] = [];
    const gated = {
      ...dest,
      writeBehind: 2,
      async write(flow: Flow, ctx: { signal: AbortSignal }) {
        signals.push(ctx.signal);
        await new Promise<void>((r) => open.set(flow.document.record_id, r));
        await dest.write(flow);
      },
    };
    const job = engine.run(planOf([lineSplitter]), { source: memorySource(['a', 'b', 'c', 'd', 'e', 'f']), destination: gated, concurrency: 1 });
    // Two writes behind, a third holding the only pull slot.
    for (let i = 0; i < 200 && open.size < 3; i++) await sleep(2);
    await sleep(20);
    expect([...open.keys()]).toEqual(['doc-0.txt', 'doc-1.txt', 'doc-2.txt']);
    job.cancel();
    expect(signals.every((s) => s.aborted)).toBe(true);
    for (const release of open.values()) release();
    const summary = await job.done;
    expect(summary.status).toBe('STOPPED');
    expect(open.size).toBe(3);
    expect(summary.counts).toMatchObject({ total: 3, written: 3, failed: 0 });
  });
});
