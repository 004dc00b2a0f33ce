import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elementToJSON } from '@quarry/core/element';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PartitionPool } from '../../src/pool/partition-pool.js';

const corpusDocs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/corpus/docs');
const crashingWorker = new URL('../support/crashing-partition-worker.ts', import.meta.url);
const enc = new TextEncoder();

// 2,345 paragraphs: many of the writer's batches of 100 elements, the last one partial.
const paragraphs = enc.encode(
  Array.from({ length: 2345 }, (_, i) => `Paragraph ${i} says something "quoted" about item ${i}, with a backslash \\ and a tab\there.`).join('\n\n'),
);

let dir: string;
beforeAll(async () => (dir = await mkdtemp(path.join(tmpdir(), 'quarry-partition-to-file-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('PartitionPool.partitionToFile', () => {
  let pool: PartitionPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  /** What `quarry partition` printed before the process wrote the file: the elements sent back, stringified here. */
  async function printed(input: Uint8Array | { path: string }, filename: string): Promise<string> {
    const elements = await pool!.partition(input, { filename, strategy: 'fast', unique_element_ids: false });
    return `${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`;
  }

  it('writes the bytes of the element JSON array that the elements sent back stringify to, and nothing else', async () => {
    pool = new PartitionPool({ size: 1 });
    const out = path.join(dir, 'same');
    await mkdir(out);
    const docs: Array<[string, Uint8Array]> = [
      ['paragraphs.txt', paragraphs],
      ['one.md', enc.encode('# One heading\n\nAnd one paragraph under it.\n')],
      // Whitespace only: no element, an empty array.
      ['blank.txt', enc.encode('\n \n\t\n')],
    ];
    for (const [name, bytes] of docs) {
      const file = path.join(out, `${name}.json`);
      const written = await pool.partitionToFile(bytes, { filename: name, strategy: 'fast', unique_element_ids: false }, file);
      const expected = await printed(bytes, name);
      expect(await readFile(file, 'utf8'), name).toBe(expected);
      expect(written.elements).toBe((JSON.parse(expected) as unknown[]).length);
    }
    expect(JSON.parse(await readFile(path.join(out, 'paragraphs.txt.json'), 'utf8'))).toHaveLength(2345);
    expect(await readFile(path.join(out, 'blank.txt.json'), 'utf8')).toBe('[]\n');
    expect((await readdir(out)).sort()).toEqual(['blank.txt.json', 'one.md.json', 'paragraphs.txt.json']);
  }, 60_000);

  it.skipIf(!existsSync(corpusDocs))(
    'writes the same bytes for corpus PDFs read by path (skipped: corpus absent)',
    async () => {
      pool = new PartitionPool({ size: 1 });
      for (const name of ['multi-column-2p.pdf', 'reliance.pdf']) {
        const file = path.join(dir, `${name}.json`);
        const input = { path: path.join(corpusDocs, name) };
        await pool.partitionToFile(input, { filename: name, strategy: 'fast', unique_element_ids: false }, file);
        expect(await readFile(file, 'utf8'), name).toBe(await printed(input, name));
      }
    },
    60_000,
  );

  it('leaves no file, whole or partial, when the process dies after writing and before answering (DOCUMENT_CRASHED)', async () => {
    pool = new PartitionPool({ size: 1, workerUrl: crashingWorker });
    const out = path.join(dir, 'torn');
    await mkdir(out);
    const e = await pool.partitionToFile(paragraphs, { filename: 'torn.txt' }, path.join(out, 'torn.txt.json')).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'DOCUMENT_CRASHED', message: 'torn.txt: the partition process was killed by SIGSEGV' });
    expect(await readdir(out)).toEqual([]);
    // The next document gets a fresh process and its file.
    await pool.partitionToFile(enc.encode('A sentence after the crash.'), { filename: 'after.txt' }, path.join(out, 'after.txt.json'));
    expect(await readdir(out)).toEqual(['after.txt.json']);
  }, 60_000);

  it('fails with DESTINATION_WRITE_FAILED naming the file when it cannot be put in place, and leaves nothing behind', async () => {
    pool = new PartitionPool({ size: 1 });
    const out = path.join(dir, 'taken');
    // A directory already holds the name: the complete temporary file cannot be renamed onto it.
    const file = path.join(out, 'note.txt.json');
    await mkdir(file, { recursive: true });
    await writeFile(path.join(file, 'keep'), 'x');
    const e = await pool.partitionToFile(enc.encode('One sentence to write.'), { filename: 'note.txt' }, file).catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'DESTINATION_WRITE_FAILED', details: { path: file } });
    expect((e as Error).message).toMatch(new RegExp(`^cannot write ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: E[A-Z]+`));
    expect(await readdir(out)).toEqual(['note.txt.json']);
    // A folder that does not exist: the process cannot open the file, and says which one.
    const missing = path.join(dir, 'no-such-folder', 'note.txt.json');
    const e2 = await pool.partitionToFile(enc.encode('One sentence to write.'), { filename: 'note.txt' }, missing).catch((err: unknown) => err);
    expect(e2).toMatchObject({ code: 'DESTINATION_WRITE_FAILED', details: { path: missing } });
    expect((e2 as Error).message).toContain(`cannot write ${missing}: ENOENT`);
  }, 60_000);
});
