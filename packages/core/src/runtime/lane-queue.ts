/**
 * Which processes a task may run in: `general` processes take any task, `small` ones (the small
 * lane) only tasks whose cost is at most the lane's limit.
 */
export type Lane = 'general' | 'small';

/** A waiting task as the queue sees it: its estimated cost (a document's bytes, say). */
export interface Queued {
  cost: number;
}

/**
 * The waiting tasks of a process pool, and the rule of which free process takes which: every
 * process takes the oldest task it may run, so tasks start first-come first-served within what
 * each process accepts. The small lane accepts tasks of cost at most `smallCost`: while big tasks
 * hold every general process, small ones still start in the lane instead of waiting behind them.
 * Without a lane (`smallCost` undefined) it is a plain FIFO queue.
 */
export class LaneQueue<P extends Queued> {
  private readonly waiting: P[] = [];

  constructor(private readonly smallCost: number | undefined) {}

  get length(): number {
    return this.waiting.length;
  }

  push(task: P): void {
    this.waiting.push(task);
  }

  /** Takes a task out of the queue (its caller withdrew it); false when it was not waiting. */
  remove(task: P): boolean {
    const at = this.waiting.indexOf(task);
    if (at < 0) return false;
    this.waiting.splice(at, 1);
    return true;
  }

  /** Empties the queue, returning what waited. */
  drain(): P[] {
    return this.waiting.splice(0);
  }

  /** Whether a process of `lane` would take a task now. */
  hasWork(lane: Lane): boolean {
    return this.find(lane) >= 0;
  }

  /** The oldest task a process of `lane` may run, taken out of the queue. */
  take(lane: Lane): P | undefined {
    const at = this.find(lane);
    return at < 0 ? undefined : this.waiting.splice(at, 1)[0];
  }

  /** Whether a task of this cost may run in the small lane. */
  fitsSmallLane(cost: number): boolean {
    return this.smallCost !== undefined && cost <= this.smallCost;
  }

  private find(lane: Lane): number {
    if (lane === 'general') return this.waiting.length ? 0 : -1;
    return this.waiting.findIndex((t) => this.fitsSmallLane(t.cost));
  }
}
