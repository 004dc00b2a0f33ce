import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileFiles, type HostileFile } from '../../nodes/test/support/hostile-files.js';
import { form, startServer, tempDir, waitForJob, type TestServer } from './support.js';
import { sleep } from '@quarry/core';

// Each of these killed or hung a server that parsed documents in its own process: native decoder
// crashes, parser loops, heap exhaustion. In the partition pool each costs one process and answers.
const LIMITS = { size: 2, documentTimeoutMs: 15_000, heapLimitMb: 512, memoryLimitMb: 1_024, warm: true };

/** The codes a file may fail with, from what it does to a process that parses it in place. */
function expectedCodes(file: HostileFile): string[] {
  switch (file.expect) {
    case 'crash':
      return ['DOCUMENT_CRASHED'];
    case 'hang':
    case 'heap':
      // Whichever limit it meets first: the time limit, or the heap or resident memory limit.
      return ['NODE_TIMEOUT', 'DOCUMENT_TOO_LARGE'];
    default:
      // A coded error: a file past a limit, or data the decoder rejects.
      return ['FILE_UNREADABLE', 'FILE_TOO_LARGE', 'DOCUMENT_TOO_COMPLEX'];
  }
}

describe('hostile uploads against a running server', () => {
  let t: TestServer;
  const dir = tempDir();
  const files = hostileFiles();
  beforeAll(async () => {
    t = await startServer({ dataDir: dir.dir, partitionPool: LIMITS });
    // The lane's warm-up done: each hostile file's time limit is its own work's.
    await t.server.pool.warmedUp();
  });
  afterAll(async () => {
    await t.close();
    dir.remove();
  });

  it('answers every hostile file with its code on the legacy endpoint while health checks go on', async () => {
    const answers = Promise.all(files.map((f) => t.call('POST', '/general/v0/general', { form: form([[f.name, f.bytes]], 'files', { strategy: 'fast' }) })));
    let done = false;
    void answers.finally(() => (done = true));
    const health: number[] = [];
    while (!done) {
      const r = await t.call('GET', '/healthcheck', { key: null });
      health.push(r.status);
      await sleep(100);
    }
    const replies = await answers;
    for (const [i, file] of files.entries()) {
      const reply = replies[i]!;
      if (file.expect === 'rejection') {
        // A stray rejection inside pdf.js no longer ends anything: the document reads, or fails readably.
        expect([200, 422], `${file.name}: ${reply.text}`).toContain(reply.status);
        if (reply.status === 422) expect(reply.body.code).not.toBe('DOCUMENT_CRASHED');
        continue;
      }
      if (file.expect === 'ok') {
        // The e-mail whose corrupt images fail alone: its body is read.
        expect(reply.status, `${file.name}: ${reply.text}`).toBe(200);
        continue;
      }
      expect(reply.status, `${file.name}: ${reply.text}`).toBe(422);
      expect(expectedCodes(file), `${file.name}: ${reply.text}`).toContain(reply.body.code);
      expect(reply.body.detail).toContain(file.name);
    }
    expect(health.length).toBeGreaterThan(10);
    expect(health.every((status) => status === 200)).toBe(true);
    // The pool goes on: a plain document right after.
    const after = await t.call('POST', '/general/v0/general', { form: form([['after.txt', 'Still here after all of that.']], 'files') });
    expect(after.status).toBe(200);
    expect(after.body[0].text).toBe('Still here after all of that.');
  }, 240_000);

  it('fails the hostile documents of an on-demand job alone and completes the others', async () => {
    const chosen = files.filter((f) => ['huge-header.png', 'bad-huffman.jpg', 'corrupt-images.eml', 'cff-charset-loop.pdf'].includes(f.name));
    const good: Array<[string, string]> = [
      ['good-1.md', '# Good\n\nA document that partitions.'],
      ['good-2.txt', 'Another one that does.'],
    ];
    const job = await t.call('POST', '/jobs/', {
      form: form([...chosen.map((f): [string, Uint8Array] => [f.name, f.bytes]), ...good], 'input_files', {
        request_data: JSON.stringify({ template_id: 'fast_partition' }),
      }),
    });
    expect(job.status, job.text).toBe(200);
    const done = await waitForJob(t, job.body.id);
    expect(done.status).toBe('COMPLETED');
    const failed = await t.call('GET', `/jobs/${job.body.id}/failed-files`);
    const byName = new Map<string, string>(failed.body.failed_files.map((f: { document: string; error: string }) => [f.document, f.error]));
    const failing = chosen.filter((f) => f.expect !== 'ok');
    expect([...byName.keys()].sort(), JSON.stringify(failed.body)).toEqual(failing.map((f) => f.name).sort());
    for (const f of failing)
      expect(
        expectedCodes(f).some((code) => byName.get(f.name)!.startsWith(code)),
        `${f.name}: ${byName.get(f.name)}`,
      ).toBe(true);
    const details = await t.call('GET', `/jobs/${job.body.id}`);
    expect(details.status).toBe(200);
  }, 120_000);
});
