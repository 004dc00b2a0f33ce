import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/providers/rate-limiter.js';
import type { Clock } from '../../src/providers/sleep.js';

/** A clock that only moves when someone sleeps on it. */
function manualClock(): Clock & { sleeps: number[]; advance(ms: number): void } {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    sleeps,
    advance: (ms) => {
      now += ms;
    },
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('RateLimiter', () => {
  it('lets a full minute of requests through at once, then paces them', async () => {
    const clock = manualClock();
    const l = new RateLimiter({ requestsPerMinute: 60 }, clock);
    for (let i = 0; i < 60; i++) await l.acquire();
    expect(clock.sleeps).toEqual([]);
    await l.acquire();
    expect(clock.sleeps).toEqual([1000]);
  });

  it('wakes once: the refill it slept for is not lost to rounding', async () => {
    // Refilled in steps of 16, 12 and 4 ms, the level sums to 0.9999999999999999 instead of 1 after
    // the computed wait, which once asked for a second, 1 ms sleep.
    const clock = manualClock();
    const l = new RateLimiter({ requestsPerMinute: 2 }, clock);
    clock.advance(16);
    await l.acquire();
    clock.advance(12);
    await l.acquire();
    clock.advance(4);
    await l.acquire();
    expect(clock.sleeps).toEqual([29_984]);
  });

  it('budgets tokens per minute and corrects the budget from the reported usage', async () => {
    const clock = manualClock();
    const l = new RateLimiter({ tokensPerMinute: 6000 }, clock);
    await l.acquire(6000);
    // The call used only 3000 of the 6000 estimated: the difference is given back.
    l.settle(6000, 3000);
    await l.acquire(3000);
    expect(clock.sleeps).toEqual([]);
    await l.acquire(600);
    expect(clock.sleeps).toEqual([6000]);
  });

  it('lets a request larger than the whole budget go once the bucket is full', async () => {
    const clock = manualClock();
    const l = new RateLimiter({ tokensPerMinute: 100 }, clock);
    await l.acquire(500);
    expect(clock.sleeps).toEqual([]);
    // The bucket is 400 in debt: the next token waits for 401 tokens' worth of refill.
    await l.acquire(1);
    expect(clock.sleeps[0]).toBe(Math.ceil((401 * 60_000) / 100));
  });

  it('pause() holds every caller of the key', async () => {
    const clock = manualClock();
    const l = new RateLimiter({}, clock);
    l.pause(5000);
    await l.acquire();
    expect(clock.sleeps).toEqual([5000]);
  });

  it('narrow() keeps the lowest limit each node declared', () => {
    const l = new RateLimiter({ requestsPerMinute: 100, tokensPerMinute: 1000 });
    l.narrow({ requestsPerMinute: 500 });
    l.narrow({ requestsPerMinute: 50 });
    expect(l.limits).toEqual({ requestsPerMinute: 50, tokensPerMinute: 1000 });
  });

  it('serves callers first come, first served, and an aborted waiter does not block the queue', async () => {
    const l = new RateLimiter({ requestsPerMinute: 600 }); // one request per 100 ms after the burst
    for (let i = 0; i < 600; i++) await l.acquire();
    const order: string[] = [];
    const controller = new AbortController();
    const a = l.acquire(0, controller.signal).then(
      () => order.push('a'),
      () => order.push('a-aborted'),
    );
    const b = l.acquire().then(() => order.push('b'));
    controller.abort(new Error('gone'));
    await Promise.all([a, b]);
    expect(order).toEqual(['a-aborted', 'b']);
  });
});
