import { describe, expect, it } from 'vitest';
import { combinePreChunks } from '../../src/chunk/combine.js';
import { chunkingOptions, type ChunkingOptions } from '../../src/chunk/options.js';
import { PreChunk } from '../../src/chunk/pre-chunk.js';
import { el } from './helpers.js';

const combined = (pcs: PreChunk[], opts: ChunkingOptions): PreChunk[] => [...combinePreChunks(pcs, opts)];
const pc = (...t: string[]) =>
  PreChunk.of(
    t.map((x) => el(x.startsWith('T:') ? 'Table' : 'NarrativeText', x)),
    '',
  );

describe('combinePreChunks', () => {
  it('merges while the accumulated text is under the threshold and the result fits', () => {
    const opts = chunkingOptions('by_title', { max_characters: 250, combine_text_under_n_chars: 80 });
    const out = combined([pc('a'.repeat(68)), pc('b'.repeat(71)), pc('c'.repeat(73))], opts);
    expect(out.map((p) => p.textLength)).toEqual([68 + 2 + 71, 73]);
  });

  it('never merges past max_characters', () => {
    const opts = chunkingOptions('by_title', { max_characters: 115 });
    const out = combined([pc('x'.repeat(85)), pc('y'.repeat(33))], opts);
    expect(out).toHaveLength(2);
  });

  it('does nothing with a zero threshold', () => {
    const opts = chunkingOptions('by_title', { combine_text_under_n_chars: 0 });
    expect(combined([pc('a'), pc('b'), pc('c')], opts)).toHaveLength(3);
  });

  it('never merges a table pre-chunk with isolate_table', () => {
    const opts = chunkingOptions('by_title');
    const out = combined([pc('a'), pc('T:table'), pc('b'), pc('c')], opts);
    expect(out.map((p) => p.text)).toEqual(['a', 'T:table', 'b\n\nc']);
    const loose = chunkingOptions('by_title', { isolate_table: false });
    expect(combined([pc('a'), pc('T:table'), pc('b')], loose).map((p) => p.text)).toEqual(['a\n\nT:table\n\nb']);
  });

  it('measures the overlap prefix of the first pre-chunk only, and keeps only that one', () => {
    const opts = chunkingOptions('by_title', { max_characters: 20 });
    const first = PreChunk.of([el('NarrativeText', 'aaaa')], 'pre');
    const second = PreChunk.of([el('NarrativeText', 'bbbb')], 'dropped-prefix');
    // 'pre\n\naaaa\n\nbbbb' is 15 long: it fits although the second prefix would not.
    const [merged, ...rest] = combined([first, second], opts);
    expect(rest).toEqual([]);
    expect([merged?.text, merged?.textLength]).toEqual(['pre\n\naaaa\n\nbbbb', 15]);
    expect(combined([first, second], chunkingOptions('by_title', { max_characters: 14 }))).toHaveLength(2);
  });
});
