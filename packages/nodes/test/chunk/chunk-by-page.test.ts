import { describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { chunkByCharacter, chunkByPage } from '../../src/chunk/index.js';
import { el, texts } from './helpers.js';

function pagesOf(chunk: Element): Set<number | undefined> {
  return new Set((chunk.metadata.orig_elements as Element[]).map((e) => e.metadata.page_number));
}

describe('chunkByPage', () => {
  const doc = () => [
    el('Title', 'Cover', { page_number: 1 }),
    el('NarrativeText', 'Intro text.', { page_number: 1 }),
    el('NarrativeText', 'Unnumbered continues page 1.'),
    el('NarrativeText', 'Second page.', { page_number: 2 }),
    el('Title', 'Heading on page 2', { page_number: 2 }),
    el('NarrativeText', 'Back to an earlier page number.', { page_number: 1 }),
    el('NarrativeText', 'x '.repeat(120), { page_number: 3 }),
  ];

  it('never puts two pages in one chunk, even when the next element fits', () => {
    const chunks = chunkByPage(doc(), { max_characters: 100 });
    expect(texts(chunks).slice(0, 3)).toEqual([
      'Cover\n\nIntro text.\n\nUnnumbered continues page 1.',
      'Second page.\n\nHeading on page 2',
      'Back to an earlier page number.',
    ]);
    for (const c of chunks) expect([...pagesOf(c)].filter((p) => p !== undefined).length).toBe(1);
    expect(chunks.map((c) => c.metadata.page_number)).toEqual([1, 2, 1, 3, 3, 3]);
    // the same elements by character share chunks across pages
    expect(chunkByCharacter(doc(), { max_characters: 100 }).some((c) => pagesOf(c).size > 1)).toBe(true);
  });

  it('still splits an oversized element within its page', () => {
    const chunks = chunkByPage(doc(), { max_characters: 100 });
    const last = chunks.slice(3);
    expect(last.map((c) => c.metadata.is_continuation)).toEqual([undefined, true, true]);
    expect(last.every((c) => c.text.length <= 100)).toBe(true);
  });
});
