import { describe, expect, it } from 'vitest';
import type { Element, ElementType } from '@quarry/core';
import { elementTexts } from '../../src/chunk/element-texts.js';
import { segmentOf } from '../../src/chunk/pre-chunk.js';
import { el } from './helpers.js';

describe('elementTexts', () => {
  it('gives each element its segment and its length in code points', () => {
    const elements = [
      el('NarrativeText', 'line one\nline two'),
      el('NarrativeText', 'smile 😀'),
      el('CodeSnippet', 'def f():\n    return 1\n'),
      el('Table', 'a b', { text_as_html: '<table><tr><td>\ue000</td></tr></table>' }),
      el('PageBreak', ''),
      el('NarrativeText', 'a\n\nb  c\t'),
    ];
    const { segments, lengths, pairs } = elementTexts(elements);
    expect(segments).toEqual(['line one line two', 'smile 😀', 'def f():\n    return 1\n', 'a b', '', 'a b c']);
    // The emoji is one code point (two code units); lengths are of the raw texts.
    expect([...lengths]).toEqual([17, 7, 22, 3, 0, 8]);
    expect([...(pairs ?? [])]).toEqual([0, 1, 0, 0, 0, 0]);
  });

  // Every Python whitespace character, JavaScript-only whitespace, surrogates (paired and lone),
  // private-use and noncharacter code units.
  const specials = [
    '\t', '\v', '\f', '\r', '\x1c', '\x1d', '\x1e', '\x1f', '\x85', '\xa0', '\u1680', '\u2000', '\u2005', '\u200a', '\u200b',
    '\u2028', '\u2029', '\u202a', '\u202f', '\u205f', '\u3000', '\ufeff', '😀', '\ud800', '\udfff', '\ue000', '\uf8ff', '\ufdd0',
    '\ufdef',
  ];

  function expectAgreement(elements: Element[]): void {
    const { segments, lengths, pairs } = elementTexts(elements);
    expect(segments).toEqual(elements.map(segmentOf));
    // Array.from iterates code points; a lone surrogate is one, as in Python.
    expect([...lengths]).toEqual(elements.map((e) => Array.from(e.text).length));
    expect(Array.from(elements, (_, i) => pairs?.[i] ?? 0)).toEqual(elements.map((e) => e.text.length - Array.from(e.text).length));
  }

  it('takes the slow path for each special character alone between words', () => {
    const elements = specials.flatMap((c) => [el('NarrativeText', `a${c}b`), el('NarrativeText', `a ${c} b`), el('NarrativeText', `${c}a`), el('NarrativeText', `a\n${c}`)]);
    expectAgreement(elements);
  });

  it('agrees with segmentOf and code-point counting on random texts', () => {
    // Mostly words with single spaces and newlines, as partitioners emit, and now and then a special.
    const common = ['a', 'b', 'é', '中', 'ж', ' ', '\n'];
    const types: ElementType[] = ['NarrativeText', 'Title', 'CodeSnippet', 'Table'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const pick = () => (next() % 12 === 0 ? specials[next() % specials.length] : common[next() % common.length]) as string;
    const elements: Element[] = [];
    for (let i = 0; i < 5000; i++) {
      const text = Array.from({ length: next() % 14 }, pick).join('');
      const metadata = next() % 5 === 0 ? { text_as_html: pick() } : {};
      elements.push(el(types[next() % types.length] as ElementType, text, metadata));
    }
    expectAgreement(elements);
  });
});
