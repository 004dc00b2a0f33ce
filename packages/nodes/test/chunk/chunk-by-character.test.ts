import { describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { chunkByCharacter, resolveChunkingOptions } from '../../src/chunk/index.js';
import { el, texts } from './helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('chunkByCharacter', () => {
  it('fills chunks with whole elements and ignores titles as boundaries', () => {
    const chunks = chunkByCharacter(
      [
        el('Title', 'Introduction'),
        el('NarrativeText', 'Lorem ipsum dolor sit amet consectetur adipiscing elit.'),
        el('NarrativeText', 'In rhoncus ipsum sed lectus porta volutpat.'),
      ],
      { max_characters: 70 },
    );
    expect(texts(chunks)).toEqual(['Introduction\n\nLorem ipsum dolor sit amet consectetur adipiscing elit.', 'In rhoncus ipsum sed lectus porta volutpat.']);
    expect(chunks.every((c) => c.type === 'CompositeElement' && UUID_V4.test(c.element_id))).toBe(true);
    expect(new Set(chunks.map((c) => c.element_id)).size).toBe(2);
  });

  it('keeps CodeSnippet whitespace and newlines verbatim', () => {
    const code = 'def hello():\n    print("Hello")\n\n    return True';
    const [chunk] = chunkByCharacter([el('CodeSnippet', code)]);
    expect(chunk?.text).toBe(code);
    const [mixed] = chunkByCharacter([el('NarrativeText', 'Run   this:\n'), el('CodeSnippet', code)]);
    expect(mixed?.text).toBe(`Run this:\n\n${code}`);
  });

  it('splits an oversized element and marks the continuations', () => {
    const source = el('NarrativeText', "'Lorem ipsum dolor' means 'Thank you very much'.", {
      filename: 'foo.docx',
      languages: ['lat'],
      parent_id: 'x',
      category_depth: 0,
    });
    const chunks = chunkByCharacter([source], { max_characters: 20 });
    expect(texts(chunks)).toEqual(["'Lorem ipsum dolor'", "means 'Thank you", "very much'."]);
    expect(chunks.map((c) => c.metadata.is_continuation)).toEqual([undefined, true, true]);
    for (const c of chunks) {
      expect(c.metadata.filename).toBe('foo.docx');
      expect(c.metadata.languages).toEqual(['lat']);
      expect(c.metadata.parent_id).toBeUndefined();
      expect(c.metadata.category_depth).toBeUndefined();
      expect(c.metadata.orig_elements).toEqual([source]);
    }
  });

  it('omits orig_elements when include_orig_elements is false (the node default)', () => {
    const chunks = chunkByCharacter([el('NarrativeText', 'x')], resolveChunkingOptions('chunk_by_character', {}));
    expect(chunks[0]?.metadata.orig_elements).toBeUndefined();
  });

  it('gives no chunk for elements without text, but keeps them in the chunk they fall in', () => {
    expect(chunkByCharacter([el('PageBreak', ''), el('CheckBox', '')])).toEqual([]);
    const [chunk] = chunkByCharacter([el('NarrativeText', 'foo'), el('PageBreak', ''), el('NarrativeText', 'bar')]);
    expect(chunk?.text).toBe('foo\n\nbar');
    expect((chunk!.metadata.orig_elements as Element[]).map((e) => e.type)).toEqual(['NarrativeText', 'PageBreak', 'NarrativeText']);
  });

  it('adds overlap between whole-element chunks with overlap_all', () => {
    const chunks = chunkByCharacter([el('NarrativeText', 'a'.repeat(30)), el('NarrativeText', 'b'.repeat(30))], {
      max_characters: 40,
      overlap: 5,
      overlap_all: true,
    });
    expect(texts(chunks)).toEqual(['a'.repeat(30), `aaaaa\n\n${'b'.repeat(30)}`]);
  });

  it('counts characters as code points, like the reference library', () => {
    // 10 emoji are 10 characters (20 UTF-16 units): they fit a 10-character chunk exactly.
    const ten = '😀'.repeat(10);
    expect(texts(chunkByCharacter([el('NarrativeText', ten)], { max_characters: 10 }))).toEqual([ten]);
    const chunks = chunkByCharacter([el('NarrativeText', `${'😀'.repeat(12)} 𝒳𝒳 end`)], { max_characters: 10 });
    expect(texts(chunks)).toEqual(['😀'.repeat(10), '😀😀 𝒳𝒳 end']);
    expect(chunks.every((c) => [...c.text].length <= 10)).toBe(true);
    expect((chunks[0]!.metadata.orig_elements as Element[])[0]?.text).toBe(`${'😀'.repeat(12)} 𝒳𝒳 end`);
  });

  it('maps astral characters back in an overlap prefix taken from the previous chunk', () => {
    const chunks = chunkByCharacter([el('NarrativeText', `${'a'.repeat(20)} 😀😀`), el('NarrativeText', 'b'.repeat(20))], {
      max_characters: 30,
      overlap: 4,
      overlap_all: true,
    });
    expect(texts(chunks)).toEqual([`${'a'.repeat(20)} 😀😀`, `a 😀😀\n\n${'b'.repeat(20)}`]);
  });

  it('chunks a document where only some elements hold astral characters as if each were one character', () => {
    // Metamorphic check: swapping every astral character for a BMP letter that occurs nowhere else
    // (one code unit, like the reference library's one code point) and swapping back afterwards
    // must give the same chunks, in every mode that measures or cuts text.
    const astral = ['😀', '𝒳', '𑄝', '𞤋', '𓀀'];
    const stand = ['ꀀ', 'ꀁ', 'ꀂ', 'ꀃ', 'ꀄ'];
    const swap = (text: string, from: string[], to: string[]) => from.reduce((t, c, i) => t.replaceAll(c, to[i] as string), text);
    let seed = 9;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const words = ['lorem', 'ipsum', 'dolor', '中文', 'жж', ...astral, `${astral[0]}${astral[1]}`];
    const source = Array.from({ length: 60 }, (_, i) => {
      const n = 1 + (next() % 12);
      const pick = () => words[next() % (i % 3 === 0 ? words.length : 5)] as string;
      if (i % 13 === 5) {
        // A table: its rows measured and cut by their cells' text, in code points too.
        const rows = Array.from({ length: 1 + (n % 5) }, () => [pick(), pick(), pick()]);
        const html = `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;
        return el('Table', rows.map((r) => r.join(' ')).join('\n'), { page_number: 1 + (i >> 4), text_as_html: html });
      }
      const text = Array.from({ length: n }, pick).join(next() % 4 ? ' ' : '\n');
      return el(i % 9 === 0 ? 'Title' : 'NarrativeText', text, { page_number: 1 + (i >> 4) });
    });
    const swapHtml = (e: Element, from: string[], to: string[]) =>
      typeof e.metadata.text_as_html === 'string' ? { ...e.metadata, text_as_html: swap(e.metadata.text_as_html, from, to) } : e.metadata;
    const swapped = source.map((e) => ({ ...e, text: swap(e.text, astral, stand), metadata: swapHtml(e, astral, stand) }));
    const htmls = (chunks: Element[]) => chunks.map((c) => c.metadata.text_as_html);
    for (const options of [
      { max_characters: 40 },
      { max_characters: 25, overlap: 6 },
      { max_characters: 30, overlap: 5, overlap_all: true },
      { max_characters: 60, new_after_n_chars: 20 },
    ]) {
      const got = chunkByCharacter(source, options);
      const want = chunkByCharacter(swapped, options);
      expect(texts(got)).toEqual(texts(want).map((t) => swap(t, stand, astral)));
      expect(htmls(got)).toEqual(want.map((c) => swapHtml(c, stand, astral).text_as_html));
      // orig_elements are the caller's elements, not working copies.
      for (const [i, chunk] of got.entries()) {
        const origIds = (chunk.metadata.orig_elements as Element[]).map((e) => source.indexOf(e));
        expect(origIds).toEqual((want[i]!.metadata.orig_elements as Element[]).map((e) => swapped.indexOf(e)));
      }
    }
  });

  it('leaves private-use characters of the input alone while mapping astral ones', () => {
    const text = '\ue000 x 😀 \ue001';
    expect(texts(chunkByCharacter([el('NarrativeText', text)]))).toEqual([text]);
  });

  it('does not mutate its input', () => {
    const input = [
      el('NarrativeText', 'one  two', { parent_id: 'p', languages: ['eng'] }),
      el('Table', 'a b', { text_as_html: '<table><tr><td>a b</td></tr></table>' }),
    ];
    const before = JSON.stringify(input);
    chunkByCharacter(input, { max_characters: 5 });
    expect(JSON.stringify(input)).toBe(before);
  });
});
