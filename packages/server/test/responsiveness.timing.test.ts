import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir, form, startServer, tempDir, waitForJob, type TestServer } from './support.js';
import { sleep } from '@quarry/core';

const longPdf = path.join(corpusDir, 'DA-619p.pdf');

/** Calls `probe` every `everyMs` until `until` settles; returns each call's latency in ms. */
async function latenciesWhile(until: Promise<unknown>, probe: () => Promise<unknown>, everyMs = 50): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const out: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await probe();
    out.push(performance.now() - t0);
    await sleep(everyMs);
  }
  return out;
}

// Documents are parsed in the server's partition processes: its event loop stays free for others.
describe.skipIf(!existsSync(longPdf))('the server while a 619-page PDF is partitioned (skipped: ../shared/corpus/docs/DA-619p.pdf absent)', () => {
  let t: TestServer;
  const dir = tempDir();
  beforeAll(async () => {
    t = await startServer({ dataDir: dir.dir, partitionPool: { size: 2, warm: true } });
    await t.server.pool.warmedUp();
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  it('answers health checks within 0.25 s and partitions a tiny file within 1 s', async () => {
    const pdf = readFileSync(longPdf);
    // Both processes warm (and past their first document): the tiny file must not pay for a start.
    await Promise.all(['a', 'b'].map((n) => t.call('POST', '/general/v0/general', { form: form([[`warm-${n}.txt`, 'Warm up.']], 'files') })));
    const long = t.call('POST', '/general/v0/general', { form: form([['DA-619p.pdf', pdf]], 'files', { strategy: 'fast' }) });
    await sleep(500);
    const t0 = performance.now();
    const tiny = await t.call('POST', '/general/v0/general', { form: form([['note.txt', 'A tiny note to partition while the long one runs.']], 'files') });
    const tinyMs = performance.now() - t0;
    const health = await latenciesWhile(long, () => t.call('GET', '/healthcheck', { key: null }));
    const answer = await long;
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeGreaterThan(5000);
    expect(tiny.status).toBe(200);
    expect(tiny.body.map((e: { text: string }) => e.text)).toEqual(['A tiny note to partition while the long one runs.']);
    expect(tinyMs).toBeLessThan(1_000);
    expect(health.length).toBeGreaterThan(5);
    expect(Math.max(...health)).toBeLessThan(250);
  }, 120_000);

  it('stops an on-demand job within a second of its cancel, mid-PDF, and writes nothing', async () => {
    const pdf = readFileSync(longPdf);
    const job = await t.call('POST', '/jobs/', {
      form: form([['DA-619p.pdf', pdf]], 'input_files', { request_data: JSON.stringify({ template_id: 'fast_and_chunk' }) }),
    });
    expect(job.status).toBe(200);
    for (let i = 0; i < 200 && (await t.call('GET', `/jobs/${job.body.id}`)).body.status !== 'IN_PROGRESS'; i++) await sleep(20);
    await sleep(1_500);
    const t0 = performance.now();
    expect((await t.call('POST', `/jobs/${job.body.id}/cancel`)).status).toBe(200);
    const done = await waitForJob(t, job.body.id);
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(done.status).toBe('STOPPED');
    const dl = await t.call('GET', `/jobs/${job.body.id}/download?file_id=${done.input_file_ids[0]}`);
    expect(dl.status).toBe(404);
  }, 120_000);
});
