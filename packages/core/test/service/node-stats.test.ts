import { describe, expect, it } from 'vitest';
import { NodeStatsTracker } from '../../src/service/node-stats.js';

const rows = [
  { name: 'P', type: 'partition', subtype: 'unstructured_api' },
  { name: 'P', type: 'prompter', subtype: 'x' },
  { name: 'Destination', type: 'destination', subtype: 'local' },
];

describe('NodeStatsTracker', () => {
  it('counts ready, in progress, success and failure per node from job events', () => {
    const t = new NodeStatsTracker(rows);
    for (const id of ['a', 'b', 'c', 'd']) t.observe({ type: 'document_started', record_id: id, filename: id });
    // Two nodes share the name P: positions, not names, tell them apart.
    t.observe({ type: 'node_finished', record_id: 'a', node: 'P', ms: 1, elements: 1 });
    t.observe({ type: 'node_finished', record_id: 'a', node: 'P', ms: 1, elements: 1 });
    t.observe({ type: 'node_finished', record_id: 'b', node: 'P', ms: 1, elements: 1 });
    t.observe({ type: 'document_failed', record_id: 'c', filename: 'c', node: 'P', code: 'NODE_FAILED', message: 'x' });
    const counts = (s: ReturnType<NodeStatsTracker['stats']>) => s.map((r) => [r.ready, r.in_progress, r.success, r.failure]);
    expect(counts(t.stats())).toEqual([
      [0, 1, 2, 1],
      [1, 1, 1, 0],
      [2, 1, 0, 0],
    ]);
    t.observe({ type: 'document_written', record_id: 'a', filename: 'a', elements: 1, ms: 3 });
    t.observe({ type: 'document_stopped', record_id: 'd', filename: 'd' });
    expect(counts(t.stats())).toEqual([
      [0, 0, 2, 1],
      [0, 1, 1, 0],
      [1, 0, 1, 0],
    ]);
    expect(t.stats()[2]).toMatchObject({ node_name: 'Destination', node_type: 'destination', node_subtype: 'local' });
  });

  it('counts a destination failure on the destination row', () => {
    const t = new NodeStatsTracker(rows);
    t.observe({ type: 'document_started', record_id: 'a', filename: 'a' });
    t.observe({ type: 'node_finished', record_id: 'a', node: 'P', ms: 1, elements: 1 });
    t.observe({ type: 'node_finished', record_id: 'a', node: 'P', ms: 1, elements: 1 });
    t.observe({ type: 'document_failed', record_id: 'a', filename: 'a', node: 'destination', code: 'DESTINATION_WRITE_FAILED', message: 'x' });
    expect(t.stats().map((r) => r.failure)).toEqual([0, 0, 1]);
  });
});
