import diagnostics from 'node:diagnostics_channel';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { chunkByTitle, partition } from '@quarry/nodes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, repoRoot, startServer, tempDir, waitForJob, type TestServer } from './support.js';

const docs = path.join(repoRoot, 'examples', 'docs');
const FILES = ['field-guide.md', 'quarterly-notes.html'];

/** The process ids in which documents were chunked while `work` ran, as the chunkers' tracing channel tells them in this process. */
async function chunkingPids(work: () => Promise<void>): Promise<number[]> {
  const pids: number[] = [];
  const onChunk = (message: unknown) => void pids.push((message as { pid: number }).pid);
  diagnostics.subscribe('quarry:chunk', onChunk);
  try {
    await work();
  } finally {
    diagnostics.unsubscribe('quarry:chunk', onChunk);
  }
  return pids;
}

describe('a job that partitions and chunks (real server on loopback)', () => {
  const tmp = tempDir();
  let t: TestServer;

  beforeAll(async () => {
    t = await startServer({ dataDir: tmp.dir, partitionPool: { size: 1 } });
  });
  afterAll(async () => {
    await t?.close();
    tmp.remove();
  });

  it('chunks in the partition process, not on the server, with the chunks the library makes', async () => {
    const files = await Promise.all(FILES.map(async (f): Promise<[string, Uint8Array]> => [f, new Uint8Array(await readFile(path.join(docs, f)))]));
    // The channel reports chunking in this process: the library's own call shows it does.
    expect(await chunkingPids(async () => void chunkByTitle(await partition(files[0]![1], { filename: FILES[0]! }), {}))).toEqual([process.pid]);

    let done: { status: string; input_file_ids: string[] } | undefined;
    const jobId = { id: '' };
    const pids = await chunkingPids(async () => {
      const job = await t.call('POST', '/jobs/', { form: form(files, 'input_files', { request_data: JSON.stringify({ template_id: 'fast_and_chunk' }) }) });
      expect(job.status).toBe(200);
      jobId.id = job.body.id;
      done = await waitForJob(t, job.body.id);
    });
    expect(pids).toEqual([]);
    expect(done!.status).toBe('COMPLETED');
    const details = (await t.call('GET', `/jobs/${jobId.id}/details`)).body as { node_stats: Array<{ success: number; failure: number }> };
    expect(details.node_stats.map(({ success, failure }) => [success, failure])).toEqual([
      [2, 0],
      [2, 0],
      [2, 0],
    ]);
    for (const [i, [name, bytes]] of files.entries()) {
      const kept = (await t.call('GET', `/jobs/${jobId.id}/download?file_id=${done!.input_file_ids[i]}`)).body as Array<{ type: string; text: string }>;
      // The template's chunker, run here over the same elements: the same chunks (their ids are random).
      const expected = chunkByTitle(await partition(bytes, { filename: name }), {
        max_characters: 1500,
        new_after_n_chars: 1125,
        combine_text_under_n_chars: 500,
        multipage_sections: false,
      });
      expect(kept.length).toBeGreaterThan(1);
      expect(kept.map((c) => [c.type, c.text])).toEqual(expected.map((c) => [c.type, c.text]));
    }
  });

  it('chunks a legacy request (chunking_strategy by_title) in the partition process too, as the library would', async () => {
    const [name, bytes] = [FILES[0]!, new Uint8Array(await readFile(path.join(docs, FILES[0]!)))];
    let answer: { status: number; body: Array<{ type: string; text: string }> } | undefined;
    const pids = await chunkingPids(async () => {
      answer = await t.call('POST', '/general/v0/general', {
        form: form([[name, bytes]], 'files', { strategy: 'fast', chunking_strategy: 'by_title', max_characters: '300', combine_under_n_chars: '0' }),
      });
    });
    expect(pids).toEqual([]);
    expect(answer!.status).toBe(200);
    const expected = chunkByTitle(await partition(bytes, { filename: name, strategy: 'fast' }), { max_characters: 300, combine_text_under_n_chars: 0 });
    expect(answer!.body.length).toBeGreaterThan(1);
    expect(answer!.body.map((c) => [c.type, c.text])).toEqual(expected.map((c) => [c.type, c.text]));
  });
});
