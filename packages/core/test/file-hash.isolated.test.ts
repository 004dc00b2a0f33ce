import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sha256File } from '../src/file-hash.js';

// Counts file opens (the real file handle is still returned): a file is read through one handle.
const opened = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = (p, ...rest) => {
    opened.paths.push(String(p));
    return fs.open(p, ...rest);
  };
  return { ...fs, default: { ...fs, open }, open };
});

describe('sha256File', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'quarry-hash-'));
    opened.paths.length = 0;
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('is the SHA-256 hex of the bytes, read through one handle', async () => {
    const content = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31) % 251));
    const file = path.join(root, 'data.bin');
    await writeFile(file, content);
    expect(await sha256File(file)).toBe(createHash('sha256').update(content).digest('hex'));
    expect(await sha256File(file, undefined, content.length)).toBe(createHash('sha256').update(content).digest('hex'));
    expect(opened.paths).toEqual([file, file]);
  });

  it('hashes an empty file, a file larger than one read buffer, and one that grew after it was measured', async () => {
    const empty = path.join(root, 'empty');
    await writeFile(empty, '');
    expect(await sha256File(empty, undefined, 0)).toBe(createHash('sha256').digest('hex'));
    const big = Buffer.alloc(9 * 1024 * 1024 + 7);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 253;
    const file = path.join(root, 'big.bin');
    await writeFile(file, big);
    const want = createHash('sha256').update(big).digest('hex');
    expect(await sha256File(file)).toBe(want);
    // Measured when it was 10 bytes long: the digest still covers every byte read.
    expect(await sha256File(file, undefined, 10)).toBe(want);
  });

  it('stops when the signal aborts, and names a missing file', async () => {
    const file = path.join(root, 'a.txt');
    await writeFile(file, 'a'.repeat(1_000_000));
    const ac = new AbortController();
    ac.abort();
    await expect(sha256File(file, ac.signal)).rejects.toThrow(/abort/i);
    await expect(sha256File(path.join(root, 'missing.txt'))).rejects.toThrow(/missing\.txt/);
  });
});
