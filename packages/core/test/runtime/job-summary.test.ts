import { describe, expect, it } from 'vitest';
import { countDocumentEnd, summarizeJob, type DocumentEnd, type JobTally } from '../../src/runtime/job-summary.js';

function tally(ends: DocumentEnd[], extra: Partial<JobTally> = {}): JobTally {
  const t: JobTally = {
    job_id: 'j',
    startedAt: new Date(0),
    stopped: false,
    counts: { total: ends.length, written: 0, failed: 0, skipped: 0, stopped: 0, elements: 0 },
    failures: [],
    nodes: [],
    ...extra,
  };
  for (const end of ends) countDocumentEnd(t, end);
  return t;
}

const written = (id: string, elements: number): DocumentEnd => ({ type: 'document_written', record_id: id, filename: id, elements, ms: 1 });
const failed = (id: string): DocumentEnd => ({ type: 'document_failed', record_id: id, filename: id, node: 'P', code: 'NODE_FAILED', message: 'boom' });
const skipped = (id: string): DocumentEnd => ({ type: 'document_skipped', record_id: id, filename: id, version: '1' });
const stopped = (id: string): DocumentEnd => ({ type: 'document_stopped', record_id: id, filename: id });

describe('countDocumentEnd and summarizeJob', () => {
  it('count each way a document ends, and list the failures without the event type', () => {
    const t = tally([written('a', 3), written('b', 2), failed('c'), skipped('d'), stopped('e')]);
    expect(t.counts).toEqual({ total: 5, written: 2, failed: 1, skipped: 1, stopped: 1, elements: 5 });
    expect(t.failures).toEqual([{ record_id: 'c', filename: 'c', node: 'P', code: 'NODE_FAILED', message: 'boom' }]);
  });

  it('decide the status: FAILED only when every document offered failed or the job could not run', () => {
    const at = new Date(1000);
    expect(summarizeJob(tally([written('a', 1), failed('b')]), at).status).toBe('COMPLETED');
    expect(summarizeJob(tally([failed('a'), failed('b')]), at).status).toBe('FAILED');
    expect(summarizeJob(tally([failed('a'), skipped('b')]), at).status).toBe('COMPLETED');
    expect(summarizeJob(tally([]), at).status).toBe('COMPLETED');
    expect(summarizeJob(tally([], { error: { code: 'SOURCE_NOT_FOUND', message: 'x' } }), at).status).toBe('FAILED');
    expect(summarizeJob(tally([failed('a')], { stopped: true }), at)).toMatchObject({ status: 'STOPPED', duration_ms: 1000 });
  });
});
