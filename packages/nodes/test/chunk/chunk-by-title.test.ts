import { describe, expect, it } from 'vitest';
import { hashElementId, type Element } from '@quarry/core';
import { chunkByTitle, resolveChunkingOptions } from '../../src/chunk/index.js';
import { el, texts } from './helpers.js';

const day = () => [
  el('Title', 'A Great Day', { page_number: 1 }),
  el('NarrativeText', 'Today is a great day.', { page_number: 2 }),
  el('NarrativeText', 'It is sunny outside.', { page_number: 2 }),
  el('Table', 'Heading\nCell text'),
  el('Title', 'An Okay Day'),
  el('NarrativeText', 'Today is an okay day.'),
];

describe('chunkByTitle', () => {
  it('starts a section at every title and keeps tables alone', () => {
    const chunks = chunkByTitle(day(), { combine_text_under_n_chars: 0 });
    expect(chunks.map((c) => [c.type, c.text])).toEqual([
      ['CompositeElement', 'A Great Day\n\nToday is a great day.\n\nIt is sunny outside.'],
      ['Table', 'Heading\nCell text'],
      ['CompositeElement', 'An Okay Day\n\nToday is an okay day.'],
    ]);
    expect(chunks[0]?.metadata.page_number).toBe(1);
  });

  it('gives hash ids numbered per page with unique_element_ids false, UUIDs otherwise', () => {
    const doc = () => [
      el('Title', 'Summary', { filename: 'dir/report.pdf', page_number: 1 }),
      el('NarrativeText', 'Sales rose.', { filename: 'dir/report.pdf', page_number: 1 }),
      el('Title', 'Outlook', { filename: 'dir/report.pdf', page_number: 1 }),
      el('Title', 'Risks', { filename: 'dir/report.pdf', page_number: 2 }),
    ];
    const options = { combine_text_under_n_chars: 0, unique_element_ids: false };
    const chunks = chunkByTitle(doc(), options);
    expect(chunks.map((c) => [c.text, c.metadata.page_number])).toEqual([
      ['Summary\n\nSales rose.', 1],
      ['Outlook', 1],
      ['Risks', 2],
    ]);
    expect(chunks.map((c) => c.element_id)).toEqual([
      hashElementId('report.pdf', 'Summary\n\nSales rose.', 1, 0),
      hashElementId('report.pdf', 'Outlook', 1, 1),
      hashElementId('report.pdf', 'Risks', 2, 0),
    ]);
    expect(chunkByTitle(doc(), options).map((c) => c.element_id)).toEqual(chunks.map((c) => c.element_id));
    expect(chunkByTitle(doc(), { combine_text_under_n_chars: 0 })[0]!.element_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it('breaks on page changes when multipage_sections is false (the node default)', () => {
    const chunks = chunkByTitle(day(), resolveChunkingOptions('chunk_by_title', { combine_text_under_n_chars: 0 }));
    expect(texts(chunks)[0]).toBe('A Great Day');
    expect(texts(chunks)[1]).toBe('Today is a great day.\n\nIt is sunny outside.');
  });

  it('combines sections whose elements hold astral characters as if each were one character', () => {
    // As in the chunkByCharacter test: astral characters swapped for unused BMP letters and back
    // must give the same chunks, here with sections merged, cut and overlapped.
    const astral = ['😀', '𝒳', '𑄝'];
    const stand = ['ꀀ', 'ꀁ', 'ꀂ'];
    const swap = (text: string, from: string[], to: string[]) => from.reduce((t, c, i) => t.replaceAll(c, to[i] as string), text);
    let seed = 4;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const words = ['alpha', 'beta', 'γάμμα', ...astral];
    const source: Element[] = Array.from({ length: 80 }, (_, i) => {
      const text = Array.from({ length: 1 + (next() % 9) }, () => words[next() % (i % 4 === 1 ? words.length : 3)] as string).join(' ');
      return el(next() % 4 === 0 ? 'Title' : 'NarrativeText', text, { page_number: 1 + (i >> 3) });
    });
    const swapped = source.map((e) => ({ ...e, text: swap(e.text, astral, stand) }));
    for (const options of [
      { max_characters: 50 },
      { max_characters: 35, overlap: 4, overlap_all: true },
      { max_characters: 80, combine_text_under_n_chars: 60, multipage_sections: false },
    ]) {
      const got = chunkByTitle(source, options);
      const want = chunkByTitle(swapped, options);
      expect(texts(got)).toEqual(texts(want).map((t) => swap(t, stand, astral)));
      expect(got.map((c) => (c.metadata.orig_elements as Element[]).map((e) => source.indexOf(e)))).toEqual(
        want.map((c) => (c.metadata.orig_elements as Element[]).map((e) => swapped.indexOf(e))),
      );
    }
  });

  it('merges small sections across titles by default but not across tables', () => {
    const chunks = chunkByTitle([
      el('Title', 'One'),
      el('NarrativeText', 'Body one.'),
      el('Title', 'Two'),
      el('NarrativeText', 'Body two.'),
      el('Table', 'T'),
      el('Title', 'Three'),
    ]);
    expect(texts(chunks)).toEqual(['One\n\nBody one.\n\nTwo\n\nBody two.', 'T', 'Three']);
  });
});
