import type { JobEvent } from '../runtime/events.js';
import type { JobNode } from './records.js';
import type { NodeStat } from './schemas.js';

/**
 * Counts documents per node from a job's events: `ready` (started, not yet at the node),
 * `in_progress` (at the node), `success`, `failure`. The last row is the destination. A document's
 * position advances one node per `node_finished`, so nodes that share a name are still told apart.
 */
export class NodeStatsTracker {
  private readonly position = new Map<string, number>();
  private readonly success: number[];
  private readonly failure: number[];

  constructor(private readonly rows: readonly Pick<JobNode, 'name' | 'type' | 'subtype'>[]) {
    this.success = rows.map(() => 0);
    this.failure = rows.map(() => 0);
  }

  /** Feeds one event. */
  observe(e: JobEvent): void {
    const last = this.rows.length - 1;
    switch (e.type) {
      case 'document_started':
        this.position.set(e.record_id, 0);
        break;
      case 'node_finished': {
        const p = this.position.get(e.record_id);
        if (p === undefined || p >= last) break;
        this.success[p]!++;
        this.position.set(e.record_id, p + 1);
        break;
      }
      case 'document_written':
        this.success[last]!++;
        this.position.delete(e.record_id);
        break;
      case 'document_failed':
        this.failure[Math.min(this.position.get(e.record_id) ?? 0, last)]!++;
        this.position.delete(e.record_id);
        break;
      case 'document_stopped':
        this.position.delete(e.record_id);
        break;
      default:
        break;
    }
  }

  /** The counts now. */
  stats(): NodeStat[] {
    const at = this.rows.map(() => 0);
    for (const p of this.position.values()) at[p]!++;
    let before = 0;
    return this.rows.map((row, i) => {
      const stat: NodeStat = {
        node_name: row.name,
        node_type: row.type,
        node_subtype: row.subtype,
        ready: before,
        in_progress: at[i]!,
        success: this.success[i]!,
        failure: this.failure[i]!,
      };
      before += at[i]!;
      return stat;
    });
  }
}
