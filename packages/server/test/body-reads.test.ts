import { describe, expect, it } from 'vitest';
import { BodyReadTurns, SMALL_BODY_BYTES } from '../src/body-reads.js';

const LARGE = SMALL_BODY_BYTES + 1;

describe('BodyReadTurns', () => {
  it('gives turns in arrival order, passing each ended turn to the next in line', async () => {
    const turns = new BodyReadTurns(2);
    const order: string[] = [];
    const a = await turns.take(LARGE);
    const b = await turns.take(LARGE);
    const c = turns.take(LARGE).then((end) => (order.push('c'), end));
    const d = turns.take(LARGE).then((end) => (order.push('d'), end));
    expect(turns.load()).toEqual({ reading: 2, waiting: 2 });
    b();
    b(); // a second call of the same end is a no-op
    (await c)();
    a();
    (await d)();
    expect(order).toEqual(['c', 'd']);
    expect(turns.load()).toEqual({ reading: 0, waiting: 0 });
  });

  it('lets small bodies through at once, even when every turn is taken', async () => {
    const turns = new BodyReadTurns(1);
    await turns.take(LARGE);
    const end = await turns.take(SMALL_BODY_BYTES);
    end();
    expect(turns.load()).toEqual({ reading: 1, waiting: 0 });
  });

  it('a body of unknown length (chunked) waits like a large one', async () => {
    const turns = new BodyReadTurns(1);
    await turns.take(LARGE);
    void turns.take(Number.NaN);
    expect(turns.load()).toEqual({ reading: 1, waiting: 1 });
  });

  it('an abort while waiting rejects with its reason and leaves the line', async () => {
    const turns = new BodyReadTurns(1);
    const first = await turns.take(LARGE);
    const controller = new AbortController();
    const waiting = turns.take(LARGE, controller.signal);
    const after = turns.take(LARGE);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(turns.load()).toEqual({ reading: 1, waiting: 1 });
    first();
    (await after)();
    expect(turns.load()).toEqual({ reading: 0, waiting: 0 });
  });

  it('refuses a count of turns that is not a positive integer', () => {
    expect(() => new BodyReadTurns(0)).toThrow(/positive integer, got 0/);
  });
});
