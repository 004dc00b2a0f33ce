/**
 * Marble tests of the batching queue, in virtual time: letters are items pushed by a hot source,
 * the expected marbles show when each batch starts (its items joined), and each batch takes the
 * cold `run` marble to settle. One frame is one millisecond.
 */
import { Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { BatchQueue, type BatchQueueHandlers, type BatchQueueOptions } from '../../src/concurrency/batch-queue.js';

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** The batches a queue starts, as joined strings, for items arriving on `source`. */
function batchesOf(
  source: Observable<string>,
  options: BatchQueueOptions,
  run: BatchQueueHandlers<string>['run'],
  weight?: (item: string) => number,
): Observable<string> {
  return new Observable<string>((sub) => {
    const queue = new BatchQueue<string>(options, {
      run: (batch) => {
        sub.next(batch.join(''));
        return run(batch);
      },
    });
    return source.subscribe({ next: (item) => queue.push(item, weight?.(item)), complete: () => queue.end() });
  });
}

describe('BatchQueue in virtual time', () => {
  it('cuts a batch as soon as it holds maxItems, and the rest when the source ends', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('a-b-c-d-e|');
      const out = batchesOf(source, { maxItems: 2, flushMs: 100, concurrency: 2, scheduler: ts }, () => cold('--|'));
      expectObservable(out).toBe('--x---y--z', { x: 'ab', y: 'cd', z: 'e' });
    });
  });

  it('flushes a partial batch flushMs after its oldest item arrived', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('a 5ms b 20ms c 50ms |');
      const out = batchesOf(source, { maxItems: 10, flushMs: 10, scheduler: ts }, () => cold('-|'));
      // c arrives at 27 and waits its own 10 ms.
      expectObservable(out).toBe('10ms x 26ms y', { x: 'ab', y: 'c' });
    });
  });

  it('keeps at most `concurrency` batches in flight; the next starts when one settles', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('abcd|');
      const out = batchesOf(source, { maxItems: 1, flushMs: 0, concurrency: 2, scheduler: ts }, () => cold('----|'));
      expectObservable(out).toBe('ab--cd', { a: 'a', b: 'b', c: 'c', d: 'd' });
    });
    scheduler().run(({ hot, cold, expectObservable }) => {
      const source = hot('abc|');
      const out = batchesOf(source, { maxItems: 1, flushMs: 0 }, () => cold('----|'));
      expectObservable(out).toBe('a---b---c', { a: 'a', b: 'b', c: 'c' });
    });
  });

  it('gathers what arrives while the slots are busy into the next batch', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('a-bcd---|');
      const out = batchesOf(source, { maxItems: 10, flushMs: 0, scheduler: ts }, () => cold('-----|'));
      expectObservable(out).toBe('a----x', { a: 'a', x: 'bcd' });
    });
  });

  it('waits idleFlushMs when nothing is in flight, flushMs while a batch is', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('a-b 20ms |');
      const out = batchesOf(source, { flushMs: 5, idleFlushMs: 1, concurrency: 2, scheduler: ts }, () => cold('---------|'));
      expectObservable(out).toBe('-a-----b', { a: 'a', b: 'b' });
    });
  });

  it('with cutOnPush false, a due batch waits for the timer, so a whole turn of pushes goes together', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('(abc)|');
      const out = batchesOf(source, { flushMs: 0, cutOnPush: false, scheduler: ts }, () => cold('-|'));
      expectObservable(out).toBe('x', { x: 'abc' });
    });
    scheduler().run(({ hot, cold, expectObservable }) => {
      const source = hot('(abc)|');
      const out = batchesOf(source, { flushMs: 0, concurrency: 3 }, () => cold('-|'));
      // Cut on push: each item goes as soon as it arrives.
      expectObservable(out).toBe('(abc)', { a: 'a', b: 'b', c: 'c' });
    });
  });

  it('pushAll adds a group of items before cutting', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const out = new Observable<string>((sub) => {
        const queue = new BatchQueue<string>(
          { maxItems: 3, flushMs: 0, scheduler: ts },
          {
            run: (batch) => {
              sub.next(batch.join(''));
              return cold('--|');
            },
          },
        );
        return source.subscribe({ next: (group) => queue.pushAll([...group]), complete: () => queue.end() });
      });
      const source = hot('x-y|', { x: 'ab', y: 'cdefg' });
      expectObservable(out).toBe('a-b-c', { a: 'ab', b: 'cde', c: 'fg' });
    });
  });

  it('cuts by weight: a batch stops before maxWeight, and a heavier item goes alone', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('abcX---d|');
      const weight = (item: string): number => (item === 'X' ? 50 : 4);
      const out = batchesOf(source, { maxWeight: 10, flushMs: 100, concurrency: 3, scheduler: ts }, () => cold('-|'), weight);
      // c makes 12: a+b (8) go; X makes the waiting weight 54: c goes, then X alone; d at the end.
      expectObservable(out).toBe('--x(yz)-w', { x: 'ab', y: 'c', z: 'X', w: 'd' });
    });
  });

  it('runs a re-queued batch before any new one', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      let retried = false;
      const source = hot('(ab)c|');
      const out = new Observable<string>((sub) => {
        const queue: BatchQueue<string> = new BatchQueue<string>(
          { maxItems: 2, flushMs: 1, scheduler: ts },
          {
            run: (batch) => {
              sub.next(batch.join(''));
              if (!retried && batch.includes('a')) {
                retried = true;
                queue.requeue(['a']);
              }
              return cold('--|');
            },
          },
        );
        return source.subscribe({ next: (i) => queue.push(i), complete: () => queue.end() });
      });
      // c arrives at 4 and waits its 1 ms.
      expectObservable(out).toBe('x-a--c', { x: 'ab', a: 'a', c: 'c' });
    });
  });

  it('never runs two batches holding the same key at once, nor a key twice in a batch', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('(xyz)|', { x: 'a1', y: 'a2', z: 'b1' });
      const out = new Observable<string>((sub) => {
        const queue = new BatchQueue<string>(
          { flushMs: 1, concurrency: 3, scheduler: ts },
          {
            key: (item) => item[0]!,
            run: (batch) => {
              sub.next(batch.join(','));
              return cold('---|');
            },
          },
        );
        return source.subscribe({ next: (i) => queue.push(i), complete: () => queue.end() });
      });
      expectObservable(out).toBe('-x--y', { x: 'a1,b1', y: 'a2' });
    });
  });

  it('drops items admit refuses and reweighs the ones it accepts', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('axb|');
      const out = new Observable<string>((sub) => {
        const queue = new BatchQueue<string>(
          { maxWeight: 10, flushMs: 100, concurrency: 2, scheduler: ts },
          {
            admit: (item) => (item === 'x' ? undefined : 6),
            run: (batch) => {
              sub.next(batch.join(''));
              return cold('-|');
            },
          },
        );
        // Pushed weightless, weighed when cut: 6 each, so two never share a batch.
        return source.subscribe({ next: (i) => queue.push(i, 0), complete: () => queue.end() });
      });
      expectObservable(out).toBe('---(ab)', { a: 'a', b: 'b' });
    });
  });

  it('spreads what waits over the free slots', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('(abcdef)|');
      const out = batchesOf(source, { maxWeight: 100, spreadMinWeight: 2, flushMs: 0, idleFlushMs: 1, concurrency: 3, scheduler: ts }, () => cold('-|'));
      expectObservable(out).toBe('-(xyz)', { x: 'ab', y: 'cd', z: 'ef' });
    });
  });

  it('fails for good when a run fails: no further batch is cut, and push throws the failure', () => {
    const ts = scheduler();
    ts.run(({ hot, cold, expectObservable }) => {
      const source = hot('a-b-|');
      const out = new Observable<string>((sub) => {
        const queue = new BatchQueue<string>(
          { maxItems: 1, flushMs: 0, scheduler: ts },
          {
            run: (batch) => {
              sub.next(batch.join(''));
              return batch[0] === 'a' ? cold('-#', undefined, new Error('down')) : cold('-|');
            },
          },
        );
        return source.subscribe({
          next: (i) => {
            try {
              queue.push(i);
            } catch (e) {
              sub.next(`refused ${i}: ${(e as Error).message}`);
            }
          },
        });
      });
      expectObservable(out).toBe('a-r', { a: 'a', r: 'refused b: down' });
    });
  });
});

describe('BatchQueue with real time', () => {
  it('room() holds the producer at capacity until items are released, cutting what waits at once', async () => {
    const sent: string[][] = [];
    const queue = new BatchQueue<string>({ maxItems: 10, flushMs: 60_000, capacity: 2, release: 'manual' }, { run: async (batch) => void sent.push(batch) });
    queue.push('a');
    await queue.room();
    queue.push('b');
    let roomy = false;
    const waiting = queue.room().then(() => (roomy = true));
    await new Promise((r) => setImmediate(r));
    // The producer is blocked, so the partial batch went without waiting a minute.
    expect(sent).toEqual([['a', 'b']]);
    expect(roomy).toBe(false);
    queue.release();
    await waiting;
    expect(roomy).toBe(true);
    let idle = false;
    const done = queue.idle().then(() => (idle = true));
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(false);
    queue.release();
    await done;
    expect(queue.held).toBe(0);
  });

  it('room() and idle() reject with the reason when their signal aborts', async () => {
    const queue = new BatchQueue<string>({ flushMs: 0, capacity: 1, release: 'manual' }, { run: async () => undefined });
    queue.push('a');
    const controller = new AbortController();
    const room = queue.room(controller.signal);
    const idle = queue.idle(controller.signal);
    controller.abort(new Error('cancelled'));
    await expect(room).rejects.toThrow('cancelled');
    await expect(idle).rejects.toThrow('cancelled');
  });

  it('idle() and push() throw what a failed run threw; discard() returns what waited', async () => {
    const queue = new BatchQueue<string>({ maxItems: 1, flushMs: 0 }, { run: async () => Promise.reject(new Error('redis down')) });
    queue.push('a');
    await expect(queue.idle()).rejects.toThrow('redis down');
    expect(() => queue.push('b')).toThrow('redis down');
    const other = new BatchQueue<string>({ flushMs: 60_000 }, { run: async () => undefined });
    other.push('x');
    other.push('y');
    expect(other.discard()).toEqual(['x', 'y']);
    expect(other.held).toBe(0);
    await other.idle();
  });

  it('remove() withdraws waiting items and releases them', async () => {
    const sent: string[][] = [];
    const queue = new BatchQueue<string>({ flushMs: 60_000 }, { run: async (batch) => void sent.push(batch) });
    for (const i of ['a1', 'b1', 'a2']) queue.push(i);
    expect(queue.remove((i) => i.startsWith('a'))).toEqual(['a1', 'a2']);
    expect(queue.held).toBe(1);
    queue.end();
    await queue.idle();
    expect(sent).toEqual([['b1']]);
  });
});
