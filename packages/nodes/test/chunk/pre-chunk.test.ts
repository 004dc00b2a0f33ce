import { describe, expect, it } from 'vitest';
import { chunkingOptions } from '../../src/chunk/options.js';
import { elementTexts } from '../../src/chunk/element-texts.js';
import { PreChunk, forEachPreChunk, isTitle, onNextPage, segmentOf } from '../../src/chunk/pre-chunk.js';
import { preChunks } from './pre-chunk-lists.js';
import { el } from './helpers.js';

const groups = (pcs: readonly PreChunk[]) => pcs.map((pc) => pc.elements.map((e) => e.text));

describe('segmentOf', () => {
  it('collapses whitespace except in CodeSnippet', () => {
    expect(segmentOf(el('NarrativeText', '  a \n b  '))).toBe('a b');
    expect(segmentOf(el('CodeSnippet', 'def f():\n    return 1\n'))).toBe('def f():\n    return 1\n');
    expect(segmentOf(el('PageBreak', ''))).toBe('');
  });
});

describe('PreChunk', () => {
  it('joins non-empty segments after the overlap prefix with blank lines', () => {
    const pc = PreChunk.of([el('Title', 'foo'), el('PageBreak', ''), el('NarrativeText', ' bar  baz ')], 'da bang.');
    expect(pc.text).toBe('da bang.\n\nfoo\n\nbar baz');
    expect(pc.textLength).toBe(pc.text.length);
  });

  it('keeps only the first overlap prefix when combined', () => {
    const a = PreChunk.of([el('Title', 'one')], 'pre');
    const b = PreChunk.of([el('NarrativeText', 'two')], 'ignored');
    const ab = a.combine(b);
    expect(ab.text).toBe('pre\n\none\n\ntwo');
    expect(ab.textLength).toBe(ab.text.length);
  });

  it('is a range of its source: the next range merges without copying, any other by copying', () => {
    const items = [el('Title', 'T'), el('PageBreak', ''), el('NarrativeText', 'a\nb'), el('NarrativeText', 'c 😀'), el('Table', 'x y')];
    const whole = PreChunk.of(items, 'pre');
    const { source } = whole;
    const head = new PreChunk(source, 0, 2, 'pre');
    const tail = new PreChunk(source, 2, 5, 'dropped');
    const merged = head.combine(tail);
    expect(merged.source).toBe(source);
    expect([merged.from, merged.to]).toEqual([0, 5]);
    expect(merged.elements).toBe(items);
    for (const pc of [merged, head.combine(PreChunk.of(items.slice(2), 'dropped'))]) {
      expect([pc.text, pc.textLength, pc.segmentCount, pc.hasTable, pc.astral]).toEqual([whole.text, whole.textLength, 4, true, true]);
      expect(pc.elements).toEqual(items);
      expect(pc.segments).toEqual(['T', 'a b', 'c 😀', 'x y']);
    }
    expect(tail.elements).toEqual(items.slice(2));
    expect([tail.elementCount, tail.text]).toEqual([3, 'dropped\n\na b\n\nc 😀\n\nx y']);
  });

  it('takes the stripped tail of its text as overlap', () => {
    const pc = PreChunk.of([el('NarrativeText', 'alpha beta gamma')], '');
    expect(pc.overlapTail(6)).toBe('gamma');
    expect(pc.overlapTail(0)).toBe('');
    expect(pc.overlapTail(1000)).toBe('alpha beta gamma');
  });
});

describe('preChunks', () => {
  it('counts separators toward the hard maximum (exact fit allowed)', () => {
    const opts = chunkingOptions('basic', { max_characters: 12 });
    // 5 + 2 + 5 = 12 fits exactly; one more character does not.
    expect(groups(preChunks([el('NarrativeText', 'aaaaa'), el('NarrativeText', 'bbbbb')], opts))).toEqual([['aaaaa', 'bbbbb']]);
    expect(groups(preChunks([el('NarrativeText', 'aaaaa'), el('NarrativeText', 'bbbbbb')], opts))).toEqual([['aaaaa'], ['bbbbbb']]);
  });

  it('is full only when longer than new_after_n_chars', () => {
    const items = [el('NarrativeText', 'aaaa'), el('NarrativeText', 'bbbb'), el('NarrativeText', 'cccc')];
    expect(groups(preChunks(items, chunkingOptions('basic', { max_characters: 100, new_after_n_chars: 4 })))).toEqual([['aaaa', 'bbbb'], ['cccc']]);
    expect(groups(preChunks(items, chunkingOptions('basic', { max_characters: 100, new_after_n_chars: 3 })))).toEqual([['aaaa'], ['bbbb'], ['cccc']]);
    expect(groups(preChunks(items, chunkingOptions('basic', { max_characters: 100, new_after_n_chars: 10 })))).toEqual([['aaaa', 'bbbb', 'cccc']]);
  });

  it('measures raw text, before whitespace is collapsed', () => {
    // 7 + 2 + 1 > 9 although the collapsed 'a b' would leave room.
    const opts = chunkingOptions('basic', { max_characters: 9 });
    expect(groups(preChunks([el('NarrativeText', 'a     b'), el('NarrativeText', 'c')], opts))).toEqual([['a     b'], ['c']]);
  });

  it('keeps tables alone and never lets anything join them', () => {
    const opts = chunkingOptions('basic');
    const items = [el('NarrativeText', 'x'), el('Table', 'T1'), el('Table', 'T2'), el('NarrativeText', 'y'), el('TableChunk', 'T3')];
    expect(groups(preChunks(items, opts))).toEqual([['x'], ['T1'], ['T2'], ['y'], ['T3']]);
    const loose = chunkingOptions('basic', { isolate_table: false });
    expect(groups(preChunks(items, loose))).toEqual([['x', 'T1', 'T2', 'y', 'T3']]);
  });

  it('adds elements without text but gives them no separator', () => {
    const opts = chunkingOptions('basic', { max_characters: 8 });
    const pcs = preChunks([el('NarrativeText', 'foo'), el('PageBreak', ''), el('NarrativeText', 'bar')], opts);
    expect(pcs.map((p) => p.text)).toEqual(['foo\n\nbar']);
  });

  it('prefixes the next pre-chunk with the overlap tail when overlap_all, but not across tables', () => {
    const opts = chunkingOptions('basic', { max_characters: 30, overlap: 6, overlap_all: true });
    const pcs = preChunks([el('NarrativeText', 'first sentence here.'), el('NarrativeText', 'second sentence here.'), el('Table', 'tab'), el('NarrativeText', 'after table')], opts);
    expect(pcs.map((p) => p.text)).toEqual(['first sentence here.', 'here.\n\nsecond sentence here.', 'tab', 'after table']);
  });

  it('starts a new pre-chunk whenever a boundary predicate fires, evaluating every predicate', () => {
    const opts = chunkingOptions('by_title');
    const calls: string[] = [];
    const spy = (e: { text: string }) => {
      calls.push(e.text);
      return false;
    };
    const items = [el('NarrativeText', 'a'), el('Title', 'T'), el('NarrativeText', 'b')];
    expect(groups(preChunks(items, opts, [isTitle, spy]))).toEqual([['a'], ['T', 'b']]);
    expect(calls).toEqual(['a', 'T', 'b']);
  });
});

describe('forEachPreChunk', () => {
  it('hands over each pre-chunk with exactly its own segments, a short one after a long one included', () => {
    const opts = chunkingOptions('basic', { max_characters: 20 });
    const items = [el('NarrativeText', 'a'), el('NarrativeText', 'b'), el('PageBreak', ''), el('NarrativeText', 'c'), el('NarrativeText', 'd'.repeat(18)), el('NarrativeText', 'e')];
    const seen: Array<[string[], string[]]> = [];
    forEachPreChunk(items, opts, [], elementTexts(items), { add: (pc) => seen.push([pc.keep().elements.map((e) => e.text), pc.keep().segments]) });
    expect(seen).toEqual([
      [['a', 'b', '', 'c'], ['a', 'b', 'c']],
      [['d'.repeat(18)], ['d'.repeat(18)]],
      [['e'], ['e']],
    ]);
  });
});

describe('onNextPage', () => {
  it('fires on every page change, never on the first element or a missing page', () => {
    const p = onNextPage();
    const pages = [3, undefined, 3, 4, undefined, 2, 2];
    expect(pages.map((n) => p(el('NarrativeText', 'x', n === undefined ? {} : { page_number: n })))).toEqual([false, false, false, true, false, true, false]);
  });

  it('treats an unnumbered first element as page 1', () => {
    const p = onNextPage();
    expect([undefined, 1, 2].map((n) => p(el('NarrativeText', 'x', n === undefined ? {} : { page_number: n })))).toEqual([false, false, true]);
  });
});
