import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileVersion, sha256File } from '../../src/local/file-version.js';
import { localSource } from '../../src/local/local-source.js';
import { createSource, listAll, makeTempDir, removeDir, writeTree } from '../support.js';

// Counts file opens (the real file handle is still returned) to prove which mode reads bytes.
const opened = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof fs.open = (p, ...rest) => {
    opened.paths.push(String(p));
    return fs.open(p, ...rest);
  };
  return { ...fs, default: { ...fs, open }, open };
});

describe('fileVersion', () => {
  let root: string;
  beforeEach(async () => {
    root = await makeTempDir();
    opened.paths.length = 0;
  });
  afterEach(() => removeDir(root));

  it('content_hash is the SHA-256 hex of the bytes, read through one handle', async () => {
    const content = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 31) % 251));
    await writeTree(root, { 'data.bin': content });
    const abs = path.join(root, 'data.bin');
    const want = createHash('sha256').update(content).digest('hex');
    expect(await sha256File(abs)).toBe(want);
    expect(await fileVersion('content_hash', abs, await stat(abs, { bigint: true }))).toBe(want);
    expect(opened.paths).toEqual([abs, abs]);
  });

  it('size_mtime is `<size>-<mtime ns>` and never opens the file', async () => {
    expect(await fileVersion('size_mtime', path.join(root, 'not-even-there'), { size: 42n, mtimeNs: 1_700_000_000_123_456_789n })).toBe(
      '42-1700000000123456789',
    );
    expect(opened.paths).toEqual([]);
  });

  it('lets the local source list in size_mtime mode without reading any file', async () => {
    await writeTree(root, { 'a.txt': 'a', 'sub/b.txt': 'bb' });
    const docs = await listAll(await createSource(localSource, { path: root, version: 'size_mtime' }));
    expect(docs.map((d) => d.version?.split('-')[0])).toEqual(['1', '2']);
    expect(opened.paths).toEqual([]);
    await listAll(await createSource(localSource, { path: root, version: 'content_hash' }));
    expect(opened.paths).toEqual([path.join(root, 'a.txt'), path.join(root, 'sub', 'b.txt')]);
  });
});
