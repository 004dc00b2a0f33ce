import { afterEach, describe, expect, it, vi } from 'vitest';
import { TaskBatcher, type QueuedTask } from '../src/task-batcher.js';

type Task = QueuedTask<number, { jobId: string }>;
const task = (n: number): Task => ({ name: 'document', data: n, opts: { jobId: `t${n}` } });

/** A batch sink that records what it was sent; `gate` holds sends back until released. */
function sink(): { batches: number[][]; send: (tasks: Task[]) => Promise<void>; release: () => void; hold: () => void } {
  const batches: number[][] = [];
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  return {
    batches,
    send: async (tasks) => {
      if (gate) await gate;
      batches.push(tasks.map((t) => t.data));
    },
    hold: () => (gate = new Promise((r) => (open = r))),
    release: () => {
      gate = undefined;
      open?.();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('TaskBatcher', () => {
  it('sends a batch as soon as it is full, and the rest on flush, in order', async () => {
    const s = sink();
    const b = new TaskBatcher(s.send, 3, 60_000);
    for (let i = 0; i < 7; i++) await b.add(task(i));
    expect(s.batches).toEqual([[0, 1, 2], [3, 4, 5]]);
    await b.flush();
    expect(s.batches).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });

  it('sends a partial batch once its first task has waited the delay', async () => {
    vi.useFakeTimers();
    const s = sink();
    const b = new TaskBatcher(s.send, 100, 5);
    await b.add(task(1));
    await b.add(task(2));
    await vi.advanceTimersByTimeAsync(4);
    expect(s.batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.batches).toEqual([[1, 2]]);
    await b.add(task(3));
    await vi.advanceTimersByTimeAsync(5);
    expect(s.batches).toEqual([[1, 2], [3]]);
  });

  it('keeps batches in order while an earlier one is still being sent', async () => {
    const s = sink();
    const b = new TaskBatcher(s.send, 2, 60_000);
    s.hold();
    const first = b.add(task(1)).then(() => b.add(task(2)));
    await Promise.resolve();
    const later = b.add(task(3));
    s.release();
    await Promise.all([first, later, b.flush()]);
    expect(s.batches).toEqual([[1, 2], [3]]);
  });

  it('throws a failed send from the next add or flush, and sends nothing after it', async () => {
    const sent: number[][] = [];
    let calls = 0;
    const b = new TaskBatcher<number, { jobId: string }>(
      async (tasks) => {
        calls++;
        if (calls === 1) throw new Error('connection lost');
        sent.push(tasks.map((t) => t.data));
      },
      2,
      60_000,
    );
    await b.add(task(1));
    await expect(b.add(task(2))).rejects.toThrow('connection lost');
    await expect(b.add(task(3))).rejects.toThrow('connection lost');
    await expect(b.flush()).rejects.toThrow('connection lost');
    expect(sent).toEqual([]);
  });

  it('discards the tasks not sent yet and returns them', async () => {
    vi.useFakeTimers();
    const s = sink();
    const b = new TaskBatcher(s.send, 10, 5);
    await b.add(task(1));
    await b.add(task(2));
    expect(b.discard().map((t) => t.opts.jobId)).toEqual(['t1', 't2']);
    await vi.advanceTimersByTimeAsync(10);
    await b.flush();
    expect(s.batches).toEqual([]);
  });
});
