import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../src/service/index.js';

describe('ManualClock', () => {
  it('fires due timers in order, each at its own time', () => {
    const clock = new ManualClock('2025-01-01T00:00:00Z');
    const seen: string[] = [];
    clock.setTimer(() => seen.push(`b@${clock.now().toISOString()}`), 2000);
    clock.setTimer(() => seen.push(`a@${clock.now().toISOString()}`), 1000);
    const cleared = clock.setTimer(() => seen.push('never'), 1500);
    cleared.clear();
    clock.advance(1999);
    expect(seen).toEqual(['a@2025-01-01T00:00:01.000Z']);
    clock.advance(1);
    expect(seen).toEqual(['a@2025-01-01T00:00:01.000Z', 'b@2025-01-01T00:00:02.000Z']);
    expect(clock.pendingTimers).toBe(0);
  });

  it('fires timers armed by timers within the same advance', () => {
    const clock = new ManualClock(0);
    const seen: number[] = [];
    const tick = (): void => {
      seen.push(clock.now().getTime());
      if (seen.length < 3) clock.setTimer(tick, 10);
    };
    clock.setTimer(tick, 10);
    clock.advance(100);
    expect(seen).toEqual([10, 20, 30]);
    expect(clock.now().getTime()).toBe(100);
  });

  it('does not go backwards', () => {
    const clock = new ManualClock(1000);
    expect(() => clock.set(999)).toThrow(RangeError);
  });
});

describe('systemClock', () => {
  it('fires a timer and can clear one', async () => {
    const fired: string[] = [];
    systemClock.setTimer(() => fired.push('a'), 5).clear();
    await new Promise<void>((resolve) => systemClock.setTimer(() => (fired.push('b'), resolve()), 5));
    expect(fired).toEqual(['b']);
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});
