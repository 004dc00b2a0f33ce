import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type DestinationConnector, type JobSummary } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { nodesPlugin, partitionFile } from '../../src/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const longPdf = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs', 'DA-619p.pdf');
const CANCEL_AFTER_MS = 1_500;

// In this process (no partition pool): pdf.js settles its promises as microtasks, so unless the page
// loop yields, a cancel fired by a timer would wait for the 619th page.
describe.skipIf(!existsSync(longPdf))('cancelling in the middle of a long PDF, in process (skipped: ../shared/corpus/docs/DA-619p.pdf absent)', () => {
  it('rejects partitionFile within a second of its signal aborting', async () => {
    const bytes = new Uint8Array(readFileSync(longPdf));
    const ac = new AbortController();
    let abortedAt = 0;
    setTimeout(() => {
      abortedAt = performance.now();
      ac.abort();
    }, CANCEL_AFTER_MS);
    const e = await partitionFile(bytes, { filename: 'DA-619p.pdf', strategy: 'fast', signal: ac.signal }).catch((err: unknown) => err);
    expect(abortedAt).toBeGreaterThan(0);
    expect(performance.now() - abortedAt).toBeLessThan(1_000);
    expect(e).toMatchObject({ code: 'JOB_ABORTED' });
  }, 60_000);

  it('stops a job within a second of cancel(), with nothing written', async () => {
    const engine = createEngine().use(nodesPlugin);
    const plan = engine.build({ name: 'long', nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] });
    const written: string[] = [];
    const destination: DestinationConnector = { write: async ({ document }) => void written.push(document.record_id) };
    const bytes = new Uint8Array(readFileSync(longPdf));
    const job = engine.run(plan, {
      source: {
        async *list() {
          yield { record_id: 'DA-619p.pdf', filename: 'DA-619p.pdf', data_source: { record_locator: {} }, read: async () => bytes };
        },
      },
      destination,
    });
    let cancelledAt = 0;
    job.events$.subscribe((event) => {
      if (event.type === 'document_started')
        setTimeout(() => {
          cancelledAt = performance.now();
          job.cancel();
        }, CANCEL_AFTER_MS);
    });
    const summary: JobSummary = await job.done;
    expect(cancelledAt).toBeGreaterThan(0);
    expect(performance.now() - cancelledAt).toBeLessThan(1_000);
    expect(summary.status).toBe('STOPPED');
    expect(summary.counts).toMatchObject({ written: 0, stopped: 1 });
    expect(written).toEqual([]);
  }, 60_000);
});
