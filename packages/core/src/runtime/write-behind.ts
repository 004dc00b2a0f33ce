import type { DestinationConnector } from '../plugin/types.js';

/**
 * The write-behind window of a job (see `DestinationConnector.writeBehind`): up to `size` documents
 * write while their pull slots are already handed on to the next documents. A document that finds
 * the window full writes holding its slot; when a write behind ends, the oldest such document moves
 * behind in its place and hands its slot on, so the window slides instead of waiting for the writes.
 * With `size` 0 every document holds its slot until its write ends.
 */
export class WriteBehindWindow {
  /** Documents writing behind: their slots were handed on while their writes run. */
  private behind = 0;
  /** Documents writing in their own slots, oldest first: each moves behind when called. */
  private readonly holding: Array<() => void> = [];

  constructor(readonly size: number) {}

  /** Writes running behind now (at most `size`). */
  get writingBehind(): number {
    return this.behind;
  }

  /** Writes holding their slots while they wait for a place behind. */
  get waiting(): number {
    return this.holding.length;
  }

  /**
   * Runs one document's write in the window and returns what it returns (or throws what it
   * throws). `release` hands the document's slot on, exactly once: at once when the window has
   * room, when an earlier write behind ends, or else when this write has ended.
   */
  async run<T>(write: () => Promise<T>, release: () => void): Promise<T> {
    let released = false;
    let wentBehind = false;
    const goBehind = (): void => {
      this.behind++;
      wentBehind = true;
      released = true;
      release();
    };
    if (this.behind < this.size) goBehind();
    else if (this.size > 0) this.holding.push(goBehind);
    try {
      return await write();
    } finally {
      if (wentBehind) {
        this.behind--;
        this.holding.shift()?.();
      } else {
        const at = this.holding.indexOf(goBehind);
        if (at >= 0) this.holding.splice(at, 1);
      }
      if (!released) release();
    }
  }
}

/** The window of a job's destinations: the smallest they declare, since every one of them must take the extra writes. */
export function writeBehindOf(destinations: readonly DestinationConnector[]): number {
  if (destinations.length === 0) return 0;
  return Math.min(...destinations.map((d) => Math.max(0, Math.floor(d.writeBehind ?? 0))));
}
