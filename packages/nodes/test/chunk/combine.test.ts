import { describe, expect, it } from 'vitest';
import { combinePreChunks } from './pre-chunk-lists.js';
import { chunkingOptions } from '../../src/chunk/options.js';
import { PreChunk } from '../../src/chunk/pre-chunk.js';
import { el } from './helpers.js';

const pc = (...t: string[]) => PreChunk.of(t.map((x) => el(x.startsWith('T:') ? 'Table' : 'NarrativeText', x)), '');

describe('combinePreChunks', () => {
  it('merges while the accumulated text is under the threshold and the result fits', () => {
    const opts = chunkingOptions('by_title', { max_characters: 250, combine_text_under_n_chars: 80 });
    const out = combinePreChunks([pc('a'.repeat(68)), pc('b'.repeat(71)), pc('c'.repeat(73))], opts);
    expect(out.map((p) => p.textLength)).toEqual([68 + 2 + 71, 73]);
  });

  it('never merges past max_characters', () => {
    const opts = chunkingOptions('by_title', { max_characters: 115 });
    const out = combinePreChunks([pc('x'.repeat(85)), pc('y'.repeat(33))], opts);
    expect(out).toHaveLength(2);
  });

  it('does nothing with a zero threshold', () => {
    const opts = chunkingOptions('by_title', { combine_text_under_n_chars: 0 });
    expect(combinePreChunks([pc('a'), pc('b'), pc('c')], opts)).toHaveLength(3);
  });

  it('never merges a table pre-chunk with isolate_table', () => {
    const opts = chunkingOptions('by_title');
    const out = combinePreChunks([pc('a'), pc('T:table'), pc('b'), pc('c')], opts);
    expect(out.map((p) => p.text)).toEqual(['a', 'T:table', 'b\n\nc']);
    const loose = chunkingOptions('by_title', { isolate_table: false });
    expect(combinePreChunks([pc('a'), pc('T:table'), pc('b')], loose).map((p) => p.text)).toEqual(['a\n\nT:table\n\nb']);
  });

  it('gives the same pre-chunks as merging pairwise with PreChunk.combine', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let trial = 0; trial < 200; trial++) {
      const max = 20 + (next() % 200);
      const opts = chunkingOptions('by_title', { max_characters: max, combine_text_under_n_chars: next() % (max + 1), isolate_table: next() % 2 === 0 });
      const pcs = Array.from({ length: 1 + (next() % 12) }, (_, i) => {
        const texts = Array.from({ length: 1 + (next() % 3) }, () => (next() % 7 === 0 ? 'T:' : '') + 'x'.repeat(next() % 60));
        return PreChunk.of(texts.map((x) => el(x.startsWith('T:') ? 'Table' : 'NarrativeText', x)), i > 0 && next() % 4 === 0 ? 'prefix' : '');
      });
      const expected: PreChunk[] = [];
      let acc: PreChunk | undefined;
      for (const pc of pcs) {
        if (acc === undefined) acc = pc;
        else if (acc.canCombine(pc, opts)) acc = acc.combine(pc);
        else {
          expected.push(acc);
          acc = pc;
        }
      }
      if (acc) expected.push(acc);
      const out = combinePreChunks(pcs, opts);
      expect(out.map((p) => [p.text, p.textLength, p.elements])).toEqual(expected.map((p) => [p.text, p.textLength, p.elements]));
    }
  });
});
