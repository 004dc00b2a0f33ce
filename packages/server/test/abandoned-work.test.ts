import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEYS, corpusDir, form, startServer, tempDir, waitForJob, type TestServer } from './support.js';
import { cpuSeconds, untilBusy, untilIdle } from './process-watch.js';
import { sleep } from '@quarry/core';

// The 619-page manual keeps a partition process busy for some 7 CPU seconds (fast strategy): after
// an abort near its start, a process that stops between pages spends a fraction of one.
const BIG = path.join(corpusDir, 'DA-619p.pdf');
const hasCorpus = existsSync(BIG);
if (!hasCorpus) console.warn(`abandoned-work tests skipped: ${BIG} not found (the shared corpus beside the repository)`);

describe.runIf(hasCorpus)('work nobody will read stops, small documents pass big ones', () => {
  const tmp = tempDir();
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const big = (): Uint8Array => new Uint8Array(readFileSync(BIG));
  const legacy = (fd: FormData, signal?: AbortSignal): Promise<Response> =>
    fetch(`${t!.origin}/general/v0/general`, { method: 'POST', body: fd, headers: { 'unstructured-api-key': KEYS.acme }, ...(signal ? { signal } : {}) });

  // A grace period longer than the tests: a process that stops did so on the abort message, not a kill.
  // Each test waits for the lane's warm-up, so that the CPU the processes burn is the document's.
  const NO_KILL = { size: 1, smallLaneProcesses: 0, abortGraceMs: 600_000, warm: true };

  it('stops the document of a client that disconnects, in the same process, which then serves the next', async () => {
    t = await startServer({ dataDir: tmp.dir, partitionPool: NO_KILL });
    await t.server.pool.warmedUp();
    const [pid] = t.server.pool.pids;
    const ac = new AbortController();
    const answered = legacy(form([['DA-619p.pdf', big()]], 'files', { strategy: 'fast' }), ac.signal).then(
      () => 'answered',
      () => 'gave up',
    );
    await untilBusy(pid!);
    ac.abort();
    const idle = untilIdle(pid!);
    expect(await answered).toBe('gave up');
    expect(await idle).toBeLessThan(2);
    expect(t.server.pool.pids).toEqual([pid]);
    const next = await t.call('POST', '/general/v0/general', { form: form([['after.txt', 'The pool still works.']], 'files') });
    expect(next.status).toBe(200);
    expect(next.body[0].text).toBe('The pool still works.');
  }, 180_000);

  it('never starts the document of a client that left while its upload was being read', async () => {
    t = await startServer({ dataDir: tmp.dir, partitionPool: NO_KILL });
    await t.server.pool.warmedUp();
    const [pid] = t.server.pool.pids;
    const request = new Request(`${t.origin}/general/v0/general`, { method: 'POST', body: form([['DA-619p.pdf', big()]], 'files', { strategy: 'fast' }) });
    const body = new Uint8Array(await request.arrayBuffer());
    const { hostname, port } = new URL(t.origin);
    const before = cpuSeconds(pid!);
    // The whole request in one write, then the connection closed: the server reads the body after
    // the client is gone, so the close comes while the upload is still being staged.
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        const head = [
          'POST /general/v0/general HTTP/1.1',
          `Host: ${hostname}:${port}`,
          `unstructured-api-key: ${KEYS.acme}`,
          `Content-Type: ${request.headers.get('content-type')}`,
          `Content-Length: ${body.length}`,
          '',
          '',
        ].join('\r\n');
        socket.write(head);
        socket.end(body, () => {
          socket.destroy();
          resolve();
        });
      });
      socket.on('error', reject);
    });
    await sleep(3000);
    await untilIdle(pid!);
    // Reading the 619 pages takes some 7 CPU seconds: none of them were spent.
    expect(cpuSeconds(pid!) - before).toBeLessThan(1);
    const next = await t.call('POST', '/general/v0/general', { form: form([['after.txt', 'The pool still works.']], 'files') });
    expect(next.status).toBe(200);
  }, 180_000);

  it('stops the document of a request past its deadline and answers NODE_TIMEOUT', async () => {
    t = await startServer({ dataDir: tmp.dir, partitionPool: NO_KILL, legacyDeadlineMs: 4000 });
    await t.server.pool.warmedUp();
    const [pid] = t.server.pool.pids;
    const r = await t.call('POST', '/general/v0/general', { form: form([['DA-619p.pdf', big()]], 'files', { strategy: 'fast' }) });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: 'NODE_TIMEOUT', detail: 'DA-619p.pdf: not partitioned within 4 s of the request' });
    await untilIdle(pid!);
    // The request's deadline withdrew the document and the process stopped it on the message.
    expect(t.server.pool.pids).toEqual([pid]);
  }, 180_000);

  // fast_and_chunk: the partition process chunks for the job, and stops as soon.
  it.each(['fast_partition', 'fast_and_chunk'])(
    'stops the documents of a cancelled job (%s)',
    async (template) => {
      t = await startServer({ dataDir: tmp.dir, partitionPool: NO_KILL });
      await t.server.pool.warmedUp();
      const [pid] = t.server.pool.pids;
      const job = await t.call('POST', '/jobs/', {
        form: form([['DA-619p.pdf', big()]], 'input_files', { request_data: JSON.stringify({ template_id: template }) }),
      });
      expect(job.status, job.text).toBe(200);
      await untilBusy(pid!);
      const idle = untilIdle(pid!);
      const cancel = await t.call('POST', `/jobs/${job.body.id}/cancel`);
      expect(cancel.status, cancel.text).toBe(200);
      expect(await idle).toBeLessThan(2);
      expect((await waitForJob(t, job.body.id)).status).toBe('STOPPED');
      expect(t.server.pool.pids).toEqual([pid]);
    },
    180_000,
  );

  it('answers small documents while a big one holds every general process', async () => {
    t = await startServer({ dataDir: tmp.dir, partitionPool: { size: 1, warm: true } });
    await t.server.pool.warmedUp();
    const [general] = t.server.pool.pids;
    const ac = new AbortController();
    let bigAnswered = false;
    const bigRequest = legacy(form([['DA-619p.pdf', big()]], 'files', { strategy: 'fast' }), ac.signal).then(
      () => (bigAnswered = true),
      () => undefined,
    );
    await untilBusy(general!);
    const small = ['stanley-cups.csv', 'ideas-page.html', 'codeblock.md', 'fake-email-attachment.eml'];
    for (const name of small) {
      const r = await t.call('POST', '/general/v0/general', { form: form([[name, new Uint8Array(readFileSync(path.join(corpusDir, name)))]], 'files') });
      expect(r.status, `${name}: ${r.text}`).toBe(200);
      expect(r.body.length).toBeGreaterThan(0);
    }
    // Every small document was answered while the big one still held the only general process.
    expect(bigAnswered).toBe(false);
    expect(t.server.pool.pids).toContain(general);
    ac.abort();
    await bigRequest;
  }, 180_000);
});
