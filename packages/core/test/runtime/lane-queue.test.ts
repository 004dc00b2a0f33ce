import { describe, expect, it } from 'vitest';
import { LaneQueue } from '../../src/runtime/lane-queue.js';

const task = (name: string, cost: number) => ({ name, cost });

describe('LaneQueue', () => {
  it('gives a general process the oldest task and the small lane the oldest small one', () => {
    const q = new LaneQueue<{ name: string; cost: number }>(10);
    for (const t of [task('big1', 100), task('small1', 5), task('big2', 100), task('small2', 10)]) q.push(t);
    expect(q.take('small')?.name).toBe('small1');
    expect(q.take('general')?.name).toBe('big1');
    expect(q.take('small')?.name).toBe('small2');
    expect(q.hasWork('small')).toBe(false);
    expect(q.hasWork('general')).toBe(true);
    expect(q.take('small')).toBeUndefined();
    expect(q.take('general')?.name).toBe('big2');
    expect(q.length).toBe(0);
  });

  it('is a plain first-come first-served queue without a lane', () => {
    const q = new LaneQueue<{ name: string; cost: number }>(undefined);
    const a = task('a', 0);
    q.push(a);
    q.push(task('b', 0));
    expect(q.hasWork('small')).toBe(false);
    expect(q.fitsSmallLane(0)).toBe(false);
    expect(q.remove(a)).toBe(true);
    expect(q.remove(a)).toBe(false);
    expect(q.drain().map((t) => t.name)).toEqual(['b']);
  });
});
