import { describe, expect, it } from 'vitest';
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

  it('breaks on page changes when multipage_sections is false (the node default)', () => {
    const chunks = chunkByTitle(day(), resolveChunkingOptions('chunk_by_title', { combine_text_under_n_chars: 0 }));
    expect(texts(chunks)[0]).toBe('A Great Day');
    expect(texts(chunks)[1]).toBe('Today is a great day.\n\nIt is sunny outside.');
  });

  it('merges small sections across titles by default but not across tables', () => {
    const chunks = chunkByTitle([el('Title', 'One'), el('NarrativeText', 'Body one.'), el('Title', 'Two'), el('NarrativeText', 'Body two.'), el('Table', 'T'), el('Title', 'Three')]);
    expect(texts(chunks)).toEqual(['One\n\nBody one.\n\nTwo\n\nBody two.', 'T', 'Three']);
  });
});
