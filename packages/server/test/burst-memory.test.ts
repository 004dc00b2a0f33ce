/**
 * A burst of 200 concurrent 5 MB uploads against the built `quarry serve` (what users run: its
 * partition processes run the worker bundle, its lane processes warm up, OCR engine included) with
 * 2 partition processes and its default queue bounds: the queue admits what fits, refuses the rest
 * with 503 before reading their bodies, and the whole process tree (server and partition processes)
 * stays under its memory budget, read from /proc while the burst runs. The uploads are of a type
 * the partition process refuses once it has read the file (so the test measures intake, staging and
 * the queue, not one parser); the bench (`pnpm bench server`) measures real documents.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BIN, startBuiltServer, type ChildServer } from './child-server.js';
import { treeRssBytes } from './process-tree.js';
import { KEYS, tempDir } from './support.js';

const CLIENTS = 200;
const FILE_BYTES = 5 * 1024 * 1024;
const BUDGET_BYTES = 800 * 1024 * 1024;
const BOUNDARY = 'burst-boundary';

/** Posts one multipart upload of `file`, written from the shared buffer (no copy per client). */
function upload(origin: string, file: Buffer, name: string): Promise<number> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}/general/v0/general`,
      {
        method: 'POST',
        headers: {
          'unstructured-api-key': KEYS.acme,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(head.length + file.length + tail.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(file);
    req.end(tail);
  });
}

const built = existsSync(CLI_BIN);
if (!built) console.warn(`skipping the burst test: the built CLI is not at ${CLI_BIN} (run node scripts/build.mjs; npm test builds first)`);

const tmp = tempDir();
let server: ChildServer | undefined;
afterAll(async () => {
  await server?.stop();
  tmp.remove();
});

describe.runIf(built)('a burst of uploads', () => {
  it(`keeps the process tree under ${BUDGET_BYTES / 2 ** 20} MB through ${CLIENTS} concurrent ${FILE_BYTES / 2 ** 20} MB uploads, answering 503 past the queue`, async () => {
    server = await startBuiltServer(tmp.dir, ['--num-processes', '2']);
    const pid = server.child.pid!;
    let peak = treeRssBytes(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, treeRssBytes(pid))), 50);
    const file = randomBytes(FILE_BYTES);
    const statuses = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => upload(server!.origin, file, `blob-${i}.bin`)));
    clearInterval(sampler);
    peak = Math.max(peak, treeRssBytes(pid));
    const counts = new Map<number, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    console.log(`burst: ${JSON.stringify(Object.fromEntries(counts))}, peak tree RSS ${(peak / 2 ** 20).toFixed(0)} MB`);
    // Admitted uploads reach a partition process, which refuses the type (400); the rest are 503.
    expect([...counts.keys()].sort()).toEqual([400, 503]);
    expect(counts.get(503)).toBeGreaterThan(0);
    expect(peak).toBeLessThan(BUDGET_BYTES);
  }, 300_000);
});
