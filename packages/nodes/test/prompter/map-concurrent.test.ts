import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../src/prompter/map-concurrent.js';
import { sleep } from '@quarry/core';

describe('mapConcurrent', () => {
  it('keeps order and never exceeds the limit', async () => {
    let running = 0;
    let most = 0;
    const out = await mapConcurrent([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await sleep(n);
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
  });
  it('rejects with the first error and starts nothing after it', async () => {
    const started: number[] = [];
    await expect(
      mapConcurrent([0, 1, 2, 3, 4, 5], 1, async (n) => {
        started.push(n);
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
    expect(started).toEqual([0, 1, 2]);
  });
  it('handles an empty list', async () => {
    expect(await mapConcurrent([], 4, async (n: number) => n)).toEqual([]);
  });
});
