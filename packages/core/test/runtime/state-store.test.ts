import { mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileStateStore } from '../../src/index.js';

let dir: string;
afterEach(async () => dir && rm(dir, { recursive: true, force: true }));

describe('FileStateStore', () => {
  it('persists versions across opens, last write wins, and compacts', async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-state-'));
    const path = join(dir, 'nested', 'state.jsonl');
    const a = await FileStateStore.open(path);
    await a.set('x', '1');
    await a.set('y', '1');
    await a.set('x', '2');
    const b = await FileStateStore.open(path);
    expect(await b.get('x')).toBe('2');
    expect(await b.get('y')).toBe('1');
    expect(await b.get('z')).toBeUndefined();
    expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(2);
  });

  it('survives a torn last line', async () => {
    dir = await mkdtemp(join(tmpdir(), 'quarry-state-'));
    const path = join(dir, 'state.jsonl');
    await writeFile(path, '{"r":"a","v":"1"}\n{"r":"b","v"');
    const s = await FileStateStore.open(path);
    expect(await s.get('a')).toBe('1');
    expect(await s.get('b')).toBeUndefined();
  });
});
