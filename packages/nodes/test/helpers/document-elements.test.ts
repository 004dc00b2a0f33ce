import { fileURLToPath } from 'node:url';
import { flatElementMetadata } from '@quarry/core';
import { describe, expect, it } from 'vitest';
import { chunk, chunkFlatDocuments, documentElements, partition } from '../../src/index.js';

const guide = fileURLToPath(new URL('../../../../examples/docs/field-guide.md', import.meta.url));
const csv = fileURLToPath(new URL('../../../../examples/docs/reading-list.csv', import.meta.url));

describe('documentElements', () => {
  it("gives each file's elements, chunked when asked, and a file that fails as an item with its error", async () => {
    const items = [];
    for await (const doc of documentElements({
      paths: [guide, '/nonexistent/x.pdf', csv],
      chunk: { subtype: 'chunk_by_title', settings: { max_characters: 200 } },
    }))
      items.push(doc);
    expect(items.map((d) => [d.source, d.error?.code])).toEqual([
      [guide, undefined],
      ['/nonexistent/x.pdf', 'DOCUMENT_READ_FAILED'],
      [csv, undefined],
    ]);
    expect(items[0]!.elements.every((e) => e.text.length <= 200 && e.type !== 'Title')).toBe(true);
    expect(items[1]).toMatchObject({ filename: 'x.pdf', elements: [], error: { node: 'partition' } });
  });
});

describe('chunkFlatDocuments', () => {
  it('chunks flat element documents as their elements, and other texts as plain text', async () => {
    const elements = await partition(guide);
    const flat = elements.map((e) => ({ text: e.text, metadata: { ...flatElementMetadata(e), source: 'guide' } }));
    const other = { text: 'A plain note.\n\nWith two paragraphs of its own.', metadata: { author: 'ada' } };
    const chunks = await chunkFlatDocuments([...flat, other], { max_characters: 200 });
    const expected = await chunk(elements, 'chunk_by_title', { max_characters: 200 });
    expect(chunks.slice(0, expected.length).map((c) => [c.text, c.metadata.type, c.metadata.filename])).toEqual(
      expected.map((c) => [c.text, c.type, 'field-guide.md']),
    );
    expect(chunks.slice(expected.length).map((c) => [c.text, c.first, c.metadata.filename])).toEqual([
      ['A plain note.\n\nWith two paragraphs of its own.', other, undefined],
    ]);
  });
});
