import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMP_SUFFIX, tempPathFor, writeFileAtomic } from '../../src/local/atomic-write.js';
import { makeTempDir, removeDir } from '../support.js';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(() => removeDir(dir));

  it('creates, then replaces a file, leaving no temp file behind', async () => {
    const target = path.join(dir, 'out.json');
    await writeFileAtomic(target, 'first, and longer than the second');
    await writeFileAtomic(target, 'second');
    expect(await readFile(target, 'utf8')).toBe('second');
    expect(await readdir(dir)).toEqual(['out.json']);
  });

  it('leaves the target untouched and removes the temp file when the rename fails', async () => {
    // A non-empty directory in the target's place makes rename fail after the temp file is written.
    const target = path.join(dir, 'taken.json');
    await mkdir(target);
    await writeFile(path.join(target, 'keep'), 'x');
    await expect(writeFileAtomic(target, 'data')).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
    expect((await readdir(dir)).sort()).toEqual(['taken.json']);
    expect(await readdir(target)).toEqual(['keep']);
  });

  it('does nothing when the signal is already aborted', async () => {
    const target = path.join(dir, 'out.json');
    await writeFileAtomic(target, 'old');
    const ac = new AbortController();
    ac.abort();
    await expect(writeFileAtomic(target, 'new', ac.signal)).rejects.toThrow();
    expect(await readFile(target, 'utf8')).toBe('old');
    expect(await readdir(dir)).toEqual(['out.json']);
  });

  it('names temp files hidden, beside the target, short enough for a 255-byte target name', async () => {
    const longName = `${'n'.repeat(250)}.json`;
    const tmp = tempPathFor(path.join(dir, longName));
    expect(path.dirname(tmp)).toBe(dir);
    expect(path.basename(tmp).startsWith('.')).toBe(true);
    expect(tmp.endsWith(TEMP_SUFFIX)).toBe(true);
    expect(Buffer.byteLength(path.basename(tmp))).toBeLessThanOrEqual(255);
    await writeFileAtomic(path.join(dir, longName), 'ok');
    expect(await readdir(dir)).toEqual([longName]);
  });

  it('never shows a reader a partial file while the target is rewritten', async () => {
    const target = path.join(dir, 'big.json');
    const versions = [JSON.stringify({ v: 'a'.repeat(400_000) }), JSON.stringify({ v: 'b'.repeat(10) })];
    await writeFileAtomic(target, versions[0] as string);
    let writing = true;
    const reads: string[] = [];
    const reader = (async () => {
      while (writing) reads.push(await readFile(target, 'utf8'));
    })();
    for (let i = 1; i <= 30; i += 1) await writeFileAtomic(target, versions[i % 2] as string);
    writing = false;
    await reader;
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(versions).toContain(r);
  });
});
