import { describe, expect, it } from 'vitest';
import { chunkingOptions } from '../../src/chunk/options.js';
import type { Element, ElementType } from '@quarry/core';
import { PreChunk, isTitle, onNextPage, preChunks, segmentOf } from '../../src/chunk/pre-chunk.js';
import { el } from './helpers.js';

const groups = (pcs: Iterable<PreChunk>) => [...pcs].map((pc) => pc.elements.map((e) => e.text));

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

  it('gathers elements, non-empty segments, lengths and tables when combined', () => {
    const items = [el('Title', 'T'), el('PageBreak', ''), el('NarrativeText', 'a\nb'), el('NarrativeText', 'c 😀'), el('Table', 'x y')];
    const whole = PreChunk.of(items, 'pre');
    const merged = PreChunk.of(items.slice(0, 2), 'pre').combine(PreChunk.of(items.slice(2), 'dropped'));
    expect([merged.text, merged.textLength, merged.hasTable]).toEqual([whole.text, whole.textLength, true]);
    expect(merged.elements).toEqual(items);
    expect([merged.body, merged.segmentCount]).toEqual(['T\n\na b\n\nc 😀\n\nx y', 4]);
    // The emoji is one code point.
    expect(merged.textLength).toBe(merged.text.length - 1);
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
    const pcs = [...preChunks([el('NarrativeText', 'foo'), el('PageBreak', ''), el('NarrativeText', 'bar')], opts)];
    expect(pcs.map((p) => p.text)).toEqual(['foo\n\nbar']);
  });

  it('prefixes the next pre-chunk with the overlap tail when overlap_all, but not across tables', () => {
    const opts = chunkingOptions('basic', { max_characters: 30, overlap: 6, overlap_all: true });
    const pcs = [
      ...preChunks(
        [el('NarrativeText', 'first sentence here.'), el('NarrativeText', 'second sentence here.'), el('Table', 'tab'), el('NarrativeText', 'after table')],
        opts,
      ),
    ];
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

describe('preChunks segments and lengths', () => {
  it('gives each pre-chunk exactly its own segments, a short one after a long one included', () => {
    const opts = chunkingOptions('basic', { max_characters: 20 });
    const items = [
      el('NarrativeText', 'a'),
      el('NarrativeText', 'b'),
      el('PageBreak', ''),
      el('NarrativeText', 'c'),
      el('NarrativeText', 'd'.repeat(18)),
      el('NarrativeText', 'e'),
    ];
    expect([...preChunks(items, opts)].map((pc) => [pc.elements.map((e) => e.text), pc.body, pc.segmentCount])).toEqual([
      [['a', 'b', '', 'c'], 'a\n\nb\n\nc', 3],
      [['d'.repeat(18)], 'd'.repeat(18), 1],
      [['e'], 'e', 1],
    ]);
  });

  // Every Python whitespace character, JavaScript-only whitespace, surrogates (paired and lone),
  // private-use and noncharacter code units.
  const specials = [
    '\t',
    '\v',
    '\f',
    '\r',
    '\x1c',
    '\x1d',
    '\x1e',
    '\x1f',
    '\x85',
    '\xa0',
    '\u1680',
    '\u2000',
    '\u2005',
    '\u200a',
    '\u200b',
    '\u2028',
    '\u2029',
    '\u202a',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
    '😀',
    '\ud800',
    '\udfff',
    '\ue000',
    '\uf8ff',
    '\ufdd0',
    '\ufdef',
  ];

  it('measures text lengths in code points and segments like segmentOf, on random texts', () => {
    // Mostly words with single spaces and newlines, as partitioners emit, and now and then a special.
    const common = ['a', 'b', 'é', '中', 'ж', ' ', '\n'];
    const types: ElementType[] = ['NarrativeText', 'Title', 'CodeSnippet', 'Table'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const pick = () => (next() % 12 === 0 ? specials[next() % specials.length] : common[next() % common.length]) as string;
    const elements: Element[] = [];
    for (let i = 0; i < 3000; i++) elements.push(el(types[next() % types.length] as ElementType, Array.from({ length: next() % 14 }, pick).join('')));
    const opts = chunkingOptions('basic', { max_characters: 30, new_after_n_chars: 25, isolate_table: false });
    const pcs = [...preChunks(elements, opts)];
    expect(pcs.flatMap((pc) => pc.elements)).toEqual(elements);
    for (const pc of pcs) {
      const segments = pc.elements.map(segmentOf).filter((s) => s !== '');
      expect([pc.body, pc.segmentCount]).toEqual([segments.join('\n\n'), segments.length]);
      expect(pc.bodyLength).toBe(Array.from(pc.body).length);
      // Array.from iterates code points; a lone surrogate is one, as in Python.
      expect(pc.textLength).toBe(Array.from(pc.text).length);
      // Raw lengths fit the hard maximum, separators counted, unless the element is alone.
      const raw = pc.elements.filter((e) => e.text).map((e) => Array.from(e.text).length);
      if (pc.elements.length > 1) expect(raw.reduce((a, b) => a + b, 0) + 2 * (raw.length - 1)).toBeLessThanOrEqual(30);
    }
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
