import { QuarryError } from '../errors.js';
import type { DocumentItem } from './document-item.js';

/** Limits of {@link NodeWatchdog}. */
export interface NodeWatchdogOptions {
  /** Report a node call running longer than this (ms). */
  stallWarningMs: number;
  /** Fail a node call running longer than this (ms); 0 disables. */
  nodeTimeoutMs: number;
  /** Called once per call that runs past `stallWarningMs`. */
  onStall(item: DocumentItem, node: string, ms: number): void;
}

interface Watched {
  item: DocumentItem;
  node: string;
  t0: number;
  warned: boolean;
  timeout: (err: Error) => void;
}

/**
 * Watches the plain node calls of one job with a single timer instead of timers per call: reports
 * a stalled call once, and fails a call at the timeout (aborting its document's signal).
 */
export class NodeWatchdog {
  private readonly watched = new Set<Watched>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: NodeWatchdogOptions) {
    const { stallWarningMs, nodeTimeoutMs } = options;
    const every = Math.max(10, Math.min(1000, Math.floor(Math.min(stallWarningMs, nodeTimeoutMs || Infinity) / 4)));
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref();
  }

  /** Runs one node call on `item`; it rejects with `NODE_TIMEOUT` when it runs past the timeout. */
  async watch<T>(item: DocumentItem, node: string, call: () => T | Promise<T>): Promise<T> {
    let w: Watched | undefined;
    try {
      return await new Promise<T>((resolve, reject) => {
        w = { item, node, t0: performance.now(), warned: false, timeout: reject };
        this.watched.add(w);
        Promise.resolve().then(call).then(resolve, reject);
      });
    } finally {
      if (w) this.watched.delete(w);
    }
  }

  /** Stops the timer (the job ended). */
  stop(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    const { stallWarningMs, nodeTimeoutMs } = this.options;
    const now = performance.now();
    for (const w of this.watched) {
      const ms = now - w.t0;
      if (!w.warned && ms > stallWarningMs) {
        w.warned = true;
        this.options.onStall(w.item, w.node, ms);
      }
      if (nodeTimeoutMs > 0 && ms > nodeTimeoutMs) {
        this.watched.delete(w);
        const err = new QuarryError('NODE_TIMEOUT', `node "${w.node}" did not finish "${w.item.doc.record_id}" within ${nodeTimeoutMs} ms`);
        w.item.controller?.abort(err);
        w.timeout(err);
      }
    }
  }
}
