import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Element } from '@quarry/core';
import { elementToJSON } from '@quarry/core/element';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeElementJsonFile } from '../../src/pool/element-json-file.js';

let dir: string;
beforeAll(async () => (dir = await mkdtemp(path.join(tmpdir(), 'quarry-element-json-file-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** `n` elements with multi-byte text, links between them and metadata that the sparse JSON drops. */
function elements(n: number): Element[] {
  return Array.from({ length: n }, (_, i) => ({
    element_id: `id-${i}`,
    type: i % 7 === 0 ? 'Title' : 'NarrativeText',
    text: `Élément ${i} — “quoted”, a tab\there, a backslash \\ and 😀. ${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(i % 13)}`,
    metadata: {
      page_number: 1 + Math.floor(i / 40),
      languages: i % 5 === 0 ? [] : ['eng'],
      ...(i % 7 === 0 ? {} : { parent_id: `id-${i - (i % 7)}` }),
      ...(i % 3 === 0 ? { links: undefined } : {}),
    },
  }));
}

describe('writeElementJsonFile', () => {
  it.each([0, 1, 99, 100, 101, 3_001])('writes the bytes JSON.stringify gives the sparse elements, for %i elements', async (n) => {
    const els = elements(n);
    const file = path.join(dir, `${n}.json`);
    await writeElementJsonFile(els, file, `out/${n}.json`);
    const written = await readFile(file, 'utf8');
    expect(written).toBe(`${JSON.stringify(els.map(elementToJSON), null, 2)}\n`);
    // Past the 1 MiB the writer gathers before a write: several writes.
    if (n === 3_001) expect(Buffer.byteLength(written)).toBeGreaterThan(1.5 * 1024 * 1024);
  });

  it('fails with DESTINATION_WRITE_FAILED naming the target when the file cannot be opened', async () => {
    const e = await writeElementJsonFile(elements(3), path.join(dir, 'missing', 'x.json'), 'out/x.json').catch((err: unknown) => err);
    expect(e).toMatchObject({ code: 'DESTINATION_WRITE_FAILED', details: { path: 'out/x.json' } });
    expect((e as Error).message).toMatch(/^cannot write out\/x\.json: .*ENOENT/);
  });
});
