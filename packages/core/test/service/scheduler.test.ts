import { describe, expect, it } from 'vitest';
import { ManualClock, type Clock } from '../../src/service/index.js';
import { Scheduler } from '../../src/service/scheduler.js';
import { captureLogger } from './support.js';

function setup(start: string) {
  const clock = new ManualClock(start);
  const ticks: string[] = [];
  const logger = captureLogger();
  const scheduler = new Scheduler(clock, (ws, id, slot) => ticks.push(`${ws}/${id}@${slot.toISOString()}`), logger);
  return { clock, ticks, scheduler, logger };
}

describe('Scheduler', () => {
  it('fires "every 15 minutes" on each quarter hour (UTC)', () => {
    const { clock, ticks, scheduler } = setup('2025-01-01T00:07:00Z');
    scheduler.set('acme', 'w1', '*/15 * * * *');
    expect(scheduler.nextRun('acme', 'w1')?.toISOString()).toBe('2025-01-01T00:15:00.000Z');
    clock.set('2025-01-01T00:14:59.999Z');
    expect(ticks).toEqual([]);
    clock.advance(1);
    expect(ticks).toEqual(['acme/w1@2025-01-01T00:15:00.000Z']);
    clock.set('2025-01-01T00:45:00Z');
    expect(ticks).toEqual(['acme/w1@2025-01-01T00:15:00.000Z', 'acme/w1@2025-01-01T00:30:00.000Z', 'acme/w1@2025-01-01T00:45:00.000Z']);
  });

  it('fires once when its timer comes late over several slots (a suspended process), then resumes from now', () => {
    let now = new Date('2025-01-01T00:00:30Z');
    const timers: Array<() => void> = [];
    const late: Clock = { now: () => now, setTimer: (fn) => (timers.push(fn), { clear() {} }) };
    const ticks: string[] = [];
    const scheduler = new Scheduler(late, (_ws, _id, slot) => ticks.push(slot.toISOString()), captureLogger());
    scheduler.set('acme', 'w1', '0 * * * *');
    now = new Date('2025-01-01T05:30:00Z');
    timers.shift()!();
    expect(ticks).toEqual(['2025-01-01T01:00:00.000Z']);
    expect(scheduler.nextRun('acme', 'w1')?.toISOString()).toBe('2025-01-01T06:00:00.000Z');
  });

  it('never fires a slot that already fired, even when rescheduled at that instant', () => {
    const { clock, ticks, scheduler } = setup('2025-01-01T00:15:00Z');
    scheduler.set('acme', 'w1', '*/15 * * * *', new Date('2025-01-01T00:15:00Z'));
    expect(scheduler.nextRun('acme', 'w1')?.toISOString()).toBe('2025-01-01T00:30:00.000Z');
    clock.set('2025-01-01T00:29:59Z');
    expect(ticks).toEqual([]);
  });

  it('does not replay a slot missed before it was set (a restart computes from now)', () => {
    const { ticks, scheduler } = setup('2025-01-01T00:20:00Z');
    scheduler.set('acme', 'w1', '*/15 * * * *', new Date('2025-01-01T00:00:00Z'));
    expect(scheduler.nextRun('acme', 'w1')?.toISOString()).toBe('2025-01-01T00:30:00.000Z');
    expect(ticks).toEqual([]);
  });

  it('waits past the 24.8-day timer limit for a monthly schedule', () => {
    const { clock, ticks, scheduler } = setup('2025-01-01T00:00:01Z');
    scheduler.set('acme', 'm', '0 0 1 * *');
    clock.set('2025-01-31T23:59:59Z');
    expect(ticks).toEqual([]);
    clock.set('2025-02-01T00:00:00Z');
    expect(ticks).toEqual(['acme/m@2025-02-01T00:00:00.000Z']);
  });

  it('removes and stops schedules; a failing tick is logged and the schedule goes on', () => {
    const clock = new ManualClock('2025-01-01T00:00:00Z');
    const logger = captureLogger();
    let calls = 0;
    const scheduler = new Scheduler(
      clock,
      () => {
        calls++;
        throw new Error('tick broke');
      },
      logger,
    );
    scheduler.set('acme', 'w1', '*/15 * * * *');
    scheduler.set('acme', 'w2', '*/15 * * * *');
    scheduler.remove('acme', 'w2');
    clock.set('2025-01-01T00:30:00Z');
    expect(calls).toBe(2);
    expect(logger.lines.filter((l) => l.includes('tick broke'))).toHaveLength(2);
    scheduler.stop();
    expect(clock.pendingTimers).toBe(0);
    expect(scheduler.nextRun('acme', 'w1')).toBeUndefined();
  });
});
