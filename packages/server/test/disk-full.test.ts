/**
 * A full disk against a real server on loopback whose data directory (SQLite store, staging,
 * job files) is a small tmpfs: every write failure is a coded 507 (never a bare 500), and once
 * space is freed the next writes succeed with no stray error from the store. Skips with a message
 * where mounting is not permitted (not root, no tmpfs).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, startServer, type TestServer } from './support.js';

const MOUNT_BYTES = 6 * 1024 * 1024;

function tryMount(): string | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${MOUNT_BYTES}`, 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    console.warn(`disk-full.test.ts: cannot mount a tmpfs (${(e as Error).message.split('\n')[0]}); the full-disk tests are skipped`);
    return undefined;
  }
}

const mount = tryMount();

/** Fills the file system with one file until a write fails; returns its path. */
function fill(dir: string): string {
  const file = path.join(dir, 'filler.bin');
  const chunk = Buffer.alloc(64 * 1024, 1);
  let size = 0;
  for (;;) {
    try {
      writeFileSync(file, chunk, { flag: 'a' });
      size += chunk.length;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
      throw e;
    }
    if (size > 2 * MOUNT_BYTES) throw new Error('the tmpfs never filled');
  }
  return file;
}

describe.skipIf(!mount)('a full disk under the data directory (tmpfs)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer({ dataDir: mount!, partitionPool: { size: 1 } });
  });
  afterAll(async () => {
    await t?.close();
    execFileSync('umount', [mount!]);
    rmSync(mount!, { recursive: true, force: true });
  });

  const workflow = (name: string) => ({
    name,
    workflow_type: 'custom',
    workflow_nodes: [{ name: 'p', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
  });

  it('answers an upload bigger than the free space with 507 DISK_FULL and keeps nothing staged', async () => {
    const big = new Uint8Array(8 * 1024 * 1024).fill(65);
    const r = await t.call('POST', '/general/v0/general', { form: form([['big.txt', big]], 'files') });
    expect(r.status, r.text).toBe(507);
    expect(r.body.code).toBe('DISK_FULL');
    expect(r.body.detail).toMatch(/No space left to write under/);
    expect(readdirSync(path.join(mount!, 'uploads'))).toEqual([]);
  });

  it('at 0 bytes free: store writes, the legacy endpoint and on-demand jobs answer coded 507/503; after freeing space the next writes succeed', async () => {
    const filler = fill(mount!);
    const created = await t.call('POST', '/workflows', { json: workflow('while-full') });
    expect([503, 507], created.text).toContain(created.status);
    expect(['DISK_FULL', 'STORE_UNAVAILABLE']).toContain(created.body.code);
    const legacy = await t.call('POST', '/general/v0/general', { form: form([['a.txt', 'Hello while full.']], 'files') });
    expect(legacy.status, legacy.text).toBe(507);
    expect(legacy.body.code).toBe('DISK_FULL');
    const job = await t.call('POST', '/jobs', {
      form: form([['a.txt', 'Hello while full.']], 'input_files', { request_data: '{"template_id": "hi_res_partition"}' }),
    });
    expect([503, 507], job.text).toContain(job.status);
    // Reads still work.
    expect((await t.call('GET', '/workflows')).status).toBe(200);

    rmSync(filler);
    const after = await t.call('POST', '/workflows', { json: workflow('after-full') });
    expect(after.status, after.text).toBe(200);
    const again = await t.call('POST', '/workflows', { json: workflow('after-full-2') });
    expect(again.status, again.text).toBe(200);
    const listed = await t.call('GET', '/workflows');
    expect(listed.body.map((w: { name: string }) => w.name).sort()).toEqual(['after-full', 'after-full-2']);
    const ok = await t.call('POST', '/general/v0/general', { form: form([['a.txt', 'Hello after.']], 'files') });
    expect(ok.status, ok.text).toBe(200);
    expect(t.responses.some((body) => body.includes('Internal Server Error'))).toBe(false);
  });
});
