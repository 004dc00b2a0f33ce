import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '@quarry/core';
import { gzipBomb } from '../damaged-documents.js';
import { KEYS, form, startServer, tempDir, type TestServer } from '../support.js';

// Inflating an upload streams in the server's process: a bomb is cut at the size limit, quickly,
// and the event loop keeps answering meanwhile.
describe('the legacy endpoint under a gzip bomb', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('answers 413 within 3 s while health checks answer within 0.5 s', async () => {
    const started = performance.now();
    let answered = 0;
    const bombed = t
      .call('POST', '/general/v0/general', {
        form: form([['zeros.txt.gz', gzipBomb(1024)]], 'files'),
        key: null,
        headers: { 'unstructured-api-key': KEYS.acme },
      })
      .then((r) => {
        answered = performance.now() - started;
        return r;
      });
    const latencies: number[] = [];
    while (!answered) {
      const t0 = performance.now();
      expect((await t.call('GET', '/healthcheck', { key: null })).status).toBe(200);
      latencies.push(performance.now() - t0);
      await sleep(10);
    }
    expect((await bombed).status).toBe(413);
    expect(answered).toBeLessThan(3000);
    expect(latencies.length).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(500);
  });
});
