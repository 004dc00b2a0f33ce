/**
 * Admission control, upload limits and request timeouts against a real server on loopback, with
 * raw sockets for the clients that stall: a held request fills the queue, the next gets 503 with
 * Retry-After and SERVER_BUSY, and the `unstructured-client` SDK retries it to success; headers,
 * a stalled body and a trickled request are cut with 408 REQUEST_TIMEOUT (intervals shortened so
 * the tests take seconds); an upload over the limit gets 413 naming it.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HTTPClient, UnstructuredClient } from 'unstructured-client';
import { sleep } from '@quarry/core';
import { KEYS, form, startServer, tempDir, type TestServer } from './support.js';

const BOUNDARY = 'quarry-test-boundary';

/** The head of a multipart upload of one file `name` whose body will be `size` bytes in all. */
function multipartHead(name: string, fileBytes: number): { head: string; tail: string; length: number } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n`;
  const tail = `\r\n--${BOUNDARY}--\r\n`;
  return { head, tail, length: Buffer.byteLength(head) + fileBytes + Buffer.byteLength(tail) };
}

/** A raw connection: what was written, and the whole response text once the server closes or answers. */
interface RawClient {
  socket: Socket;
  response: Promise<string>;
}

function rawClient(origin: string, firstBytes: string): RawClient {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.write(firstBytes);
  const response = new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('close', () => resolve(text));
    socket.on('error', () => undefined);
  });
  return { socket, response };
}

/** Starts an upload to the legacy endpoint and sends only part of its body. */
function heldUpload(origin: string, fileBytes = 1000): RawClient & { finish(): void } {
  const { head, tail, length } = multipartHead('held.txt', fileBytes);
  const client = rawClient(
    origin,
    `POST /general/v0/general HTTP/1.1\r\nHost: x\r\nunstructured-api-key: ${KEYS.acme}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${head}hello`,
  );
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    client.socket.write(`${'x'.repeat(fileBytes - 5)}${tail}`);
  };
  return { ...client, finish };
}

const statusOf = (response: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);
const bodyOf = (response: string): any => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (check()) return;
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

let t: TestServer | undefined;
let dir: { dir: string; remove(): void } | undefined;
afterEach(async () => {
  await t?.close();
  dir?.remove();
  t = undefined;
});

async function start(options: Parameters<typeof startServer>[0] extends infer O ? Omit<O & object, 'dataDir'> : never): Promise<TestServer> {
  dir = tempDir();
  t = await startServer({ dataDir: dir.dir, partitionPool: { size: 1 }, ...options });
  return t;
}

describe('admission control of the legacy endpoint', () => {
  it('answers 503 with Retry-After and SERVER_BUSY past the document bound, before reading the body, and admits again once the queue drains', async () => {
    const s = await start({ admission: { maxQueuedDocuments: 1, retryAfterSeconds: 7 } });
    const held = heldUpload(s.origin);
    await until('the held upload to enter the queue', () => s.server.queue().documents === 1);
    const busy = await s.call('POST', '/general/v0/general', { form: form([['a.txt', 'Hello there.']], 'files') });
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('7');
    expect(busy.body.code).toBe('SERVER_BUSY');
    expect(busy.body.detail).toMatch(/^Server is under heavy load: 1 documents .* the limit is 1 documents/);
    expect(s.server.queue().refused).toBe(1);
    held.finish();
    const answered = await held.response;
    expect(statusOf(answered)).toBe(200);
    await until('the queue to drain', () => s.server.queue().documents === 0);
    const ok = await s.call('POST', '/general/v0/general', { form: form([['a.txt', 'Hello there.']], 'files') });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body[0].text).toBe('Hello there.');
    // Health checks and the workflow API are not behind the gate.
    expect((await s.call('GET', '/healthcheck')).status).toBe(200);
  });

  it('bounds the queued bytes: a request that would pass them is refused while the queue holds another', async () => {
    const s = await start({ admission: { maxQueuedDocuments: 10, maxQueuedBytes: 50_000 } });
    const held = heldUpload(s.origin, 30_000);
    await until('the held upload to enter the queue', () => s.server.queue().documents === 1);
    const big = await s.call('POST', '/general/v0/general', { form: form([['big.txt', 'word '.repeat(5000)]], 'files') });
    expect(big.status).toBe(503);
    expect(big.body.code).toBe('SERVER_BUSY');
    const small = await s.call('POST', '/general/v0/general', { form: form([['small.txt', 'A short note.']], 'files') });
    expect(small.status, small.text).toBe(200);
    held.socket.destroy();
    await until('the abandoned upload to leave the queue', () => s.server.queue().documents === 0 && s.server.queue().bytes === 0);
  });

  it('the unstructured-client SDK retries a 503 after its Retry-After and gets the elements', async () => {
    const s = await start({ admission: { maxQueuedDocuments: 1, retryAfterSeconds: 1 } });
    const held = heldUpload(s.origin);
    await until('the held upload to enter the queue', () => s.server.queue().documents === 1);
    const statuses: number[] = [];
    const httpClient = new HTTPClient();
    httpClient.addHook('response', (res) => {
      statuses.push(res.status);
      // The queue frees once the client has been turned away.
      if (res.status === 503) held.finish();
    });
    const sdk = new UnstructuredClient({ serverURL: s.origin, security: { apiKeyAuth: KEYS.acme }, httpClient });
    const out = await sdk.general.partition({
      partitionParameters: { files: { fileName: 'note.txt', content: new TextEncoder().encode('Retried and answered.') } },
    });
    expect(statuses[0]).toBe(503);
    expect(statuses.at(-1)).toBe(200);
    expect((out as Array<{ text: string }>)[0]!.text).toBe('Retried and answered.');
    expect(statusOf(await held.response)).toBe(200);
  });
});

describe('upload bodies read in turns', () => {
  it('reads at most bodyReadsAtOnce large bodies at once: the next waits, unread, until the first is in', async () => {
    const s = await start({ admission: { bodyReadsAtOnce: 1 } });
    // Over 256 KiB: a body that takes a turn.
    const held = heldUpload(s.origin, 300_000);
    await until('the held upload to take the turn', () => s.server.queue().reading === 1);
    const next = s.call('POST', '/general/v0/general', { form: form([['next.txt', 'word '.repeat(60_000)]], 'files') });
    let answered = false;
    void next.then(() => (answered = true));
    await until('the second upload to wait for its turn', () => s.server.queue().waitingToRead === 1);
    // A small body skips the line.
    const small = await s.call('POST', '/general/v0/general', { form: form([['small.txt', 'Not kept waiting.']], 'files') });
    expect(small.status, small.text).toBe(200);
    expect(answered).toBe(false);
    expect(s.server.queue()).toMatchObject({ reading: 1, waitingToRead: 1 });
    held.finish();
    expect(statusOf(await held.response)).toBe(200);
    const r = await next;
    expect(r.status, r.text).toBe(200);
    expect(r.body[0].text).toMatch(/^word word/);
    expect(s.server.queue()).toMatchObject({ reading: 0, waitingToRead: 0 });
  });

  it('a client that leaves while waiting for its turn gives its place up', async () => {
    const s = await start({ admission: { bodyReadsAtOnce: 1 } });
    const held = heldUpload(s.origin, 300_000);
    await until('the held upload to take the turn', () => s.server.queue().reading === 1);
    const waiting = heldUpload(s.origin, 300_000);
    await until('the second upload to wait', () => s.server.queue().waitingToRead === 1);
    waiting.socket.destroy();
    await until('the waiting upload to leave the line', () => s.server.queue().waitingToRead === 0);
    held.finish();
    expect(statusOf(await held.response)).toBe(200);
    expect(s.server.queue()).toMatchObject({ reading: 0, waitingToRead: 0, documents: 0 });
  });

  it('a refused upload is drained, so a fetch client that sends its whole body first still reads the 503', async () => {
    const s = await start({ admission: { maxQueuedDocuments: 1 } });
    const held = heldUpload(s.origin);
    await until('the held upload to enter the queue', () => s.server.queue().documents === 1);
    const body = new FormData();
    body.append('files', new Blob([new Uint8Array(5 * 1024 * 1024).fill(120)]), 'big.txt');
    const busy = await fetch(`${s.origin}/general/v0/general`, { method: 'POST', headers: { 'unstructured-api-key': KEYS.acme }, body });
    expect(busy.status).toBe(503);
    expect(await busy.json()).toMatchObject({ code: 'SERVER_BUSY' });
    held.finish();
    expect(statusOf(await held.response)).toBe(200);
  });
});

describe('upload size limit', () => {
  it('answers 413 INPUT_TOO_LARGE naming the limit, for the legacy endpoint and on-demand jobs', async () => {
    const s = await start({ service: { inputLimits: { maxFileBytes: 2048 } } });
    const big = 'x'.repeat(4096);
    for (const [path, field] of [
      ['/general/v0/general', 'files'],
      ['/jobs', 'input_files'],
    ] as const) {
      const r = await s.call('POST', path, {
        form: form([['big.txt', big]], field, field === 'input_files' ? { request_data: '{"template_id": "hi_res_partition"}' } : {}),
      });
      expect(r.status, r.text).toBe(413);
      expect(r.body).toEqual({ detail: 'An uploaded file is larger than the size limit of 2048 bytes (0 MiB).', code: 'INPUT_TOO_LARGE' });
    }
  });
});

describe('request timeouts', () => {
  const fast = { headersTimeoutMs: 800, bodyTimeoutMs: 800, requestTimeoutMs: 2500, checkIntervalMs: 100 };

  it('cuts headers that do not arrive in time with 408 REQUEST_TIMEOUT', async () => {
    const s = await start({ timeouts: fast });
    const c = rawClient(s.origin, 'GET /healthcheck HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const trickle = setInterval(() => c.socket.writable && c.socket.write('a'), 100);
    const response = await c.response;
    clearInterval(trickle);
    expect(statusOf(response)).toBe(408);
    expect(bodyOf(response)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(bodyOf(response).detail).toMatch(/headers within 0.8 s/);
  });

  it('cuts a stalled upload body with 408 REQUEST_TIMEOUT, keeps nothing, and frees its place in the queue', async () => {
    const s = await start({ timeouts: fast, admission: { maxQueuedDocuments: 1 } });
    const held = heldUpload(s.origin);
    const response = await held.response;
    expect(statusOf(response)).toBe(408);
    expect(bodyOf(response)).toEqual({ detail: 'The request body stalled: no byte arrived for 0.8 s.', code: 'REQUEST_TIMEOUT' });
    await until('the stalled upload to leave the queue', () => s.server.queue().documents === 0);
    const ok = await s.call('POST', '/general/v0/general', { form: form([['a.txt', 'After the stall.']], 'files') });
    expect(ok.status, ok.text).toBe(200);
  });

  it('cuts a request trickled a byte at a time past the whole-request limit with 408 REQUEST_TIMEOUT', async () => {
    const s = await start({ timeouts: fast });
    const held = heldUpload(s.origin, 100_000);
    // A byte every 200 ms never stalls the body, but the whole request takes too long.
    const trickle = setInterval(() => held.socket.writable && held.socket.write('x'), 200);
    const response = await held.response;
    clearInterval(trickle);
    expect(statusOf(response)).toBe(408);
    expect(bodyOf(response)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });
});
