import { Cron } from 'croner';
import type { Logger } from '../plugin/types.js';
import type { Clock, TimerHandle } from './clock.js';

/** Called when a schedule slot falls due; `slot` is the instant the cron expression named. */
export type ScheduleTick = (workspace: string, workflowId: string, slot: Date) => void;

interface Entry {
  workspace: string;
  workflowId: string;
  cron: Cron;
  /** The next slot to fire. */
  next: Date | undefined;
  timer?: TimerHandle;
}

const key = (workspace: string, workflowId: string): string => `${workspace}\u0000${workflowId}`;

/**
 * Runs cron schedules in-process. croner computes the slots (UTC); the injected {@link Clock}
 * arms the timers, so tests move time by hand. The next slot is always computed from the later of
 * now and the last slot that fired: a slot missed while the service was down is not replayed, a
 * clock that jumps over several slots fires once, and no slot ever fires twice.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly onTick: ScheduleTick,
    private readonly logger: Logger,
  ) {}

  /** Schedules (or reschedules) a workflow. `lastSlot` is the last slot that already fired, if any. */
  set(workspace: string, workflowId: string, cronExpression: string, lastSlot?: Date): void {
    this.remove(workspace, workflowId);
    const entry: Entry = { workspace, workflowId, cron: new Cron(cronExpression, { timezone: 'Etc/UTC', paused: true }), next: undefined };
    this.entries.set(key(workspace, workflowId), entry);
    this.arm(entry, lastSlot);
  }

  /** Stops a workflow's schedule (no-op when it has none). */
  remove(workspace: string, workflowId: string): void {
    const k = key(workspace, workflowId);
    const entry = this.entries.get(k);
    if (!entry) return;
    entry.timer?.clear();
    entry.cron.stop();
    this.entries.delete(k);
  }

  /** The next slot of a workflow's schedule, or undefined when it has none. */
  nextRun(workspace: string, workflowId: string): Date | undefined {
    return this.entries.get(key(workspace, workflowId))?.next;
  }

  /** Stops every schedule. */
  stop(): void {
    for (const e of [...this.entries.values()]) this.remove(e.workspace, e.workflowId);
  }

  private arm(entry: Entry, after?: Date): void {
    const now = this.clock.now();
    const from = after && after > now ? after : now;
    entry.next = entry.cron.nextRun(from) ?? undefined;
    if (!entry.next) return;
    const slot = entry.next;
    entry.timer = this.clock.setTimer(() => this.fire(entry, slot), slot.getTime() - now.getTime());
  }

  private fire(entry: Entry, slot: Date): void {
    if (this.entries.get(key(entry.workspace, entry.workflowId)) !== entry) return;
    // A timer may fire a little early; wait for the slot rather than firing it twice later.
    if (this.clock.now() < slot) {
      entry.timer = this.clock.setTimer(() => this.fire(entry, slot), slot.getTime() - this.clock.now().getTime());
      return;
    }
    this.arm(entry, slot);
    try {
      this.onTick(entry.workspace, entry.workflowId, slot);
    } catch (e) {
      this.logger.error('schedule tick failed', { workflow_id: entry.workflowId, error: e instanceof Error ? e.message : String(e) });
    }
  }
}
