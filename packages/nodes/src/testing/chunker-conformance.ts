import type { Element } from '@quarry/core';
import { describe, expect, it } from 'vitest';

/** The options every chunker under test takes (its own defaults for the rest). */
export interface ConformanceChunkOptions {
  max_characters: number;
  include_orig_elements?: boolean;
}

/** A chunker as the suite calls it. */
export type ChunkerUnderTest = (elements: readonly Element[], options: ConformanceChunkOptions) => Element[] | Promise<Element[]>;

const CHUNK_TYPES = new Set(['CompositeElement', 'Table', 'TableChunk']);
const collapse = (s: string): string => s.split(/\s+/u).filter(Boolean).join(' ');
const length = (s: string): number => [...s].length;

function element(id: string, type: Element['type'], text: string, page: number, extra: Element['metadata'] = {}): Element {
  return { element_id: id, type, text, metadata: { filename: 'sample.pdf', filetype: 'application/pdf', page_number: page, languages: ['eng'], ...extra } };
}

/**
 * A document of every shape a chunker meets: titles, short and long paragraphs (one longer than
 * any chunk), list items, a table with its HTML, two pages, non-ASCII and astral characters.
 */
export function conformanceDocument(): Element[] {
  const long = Array.from({ length: 40 }, (_, i) => `Sentence ${i + 1} of the long paragraph runs on about quarries and stone.`).join(' ');
  const rows = Array.from({ length: 12 }, (_, i) => `<tr><td>row ${i + 1}</td><td>${(i + 1) * 7} tonnes</td></tr>`).join('');
  const tableText = Array.from({ length: 12 }, (_, i) => `row ${i + 1} ${(i + 1) * 7} tonnes`).join(' ');
  return [
    element('t1', 'Title', 'Quarry Report', 1),
    element('p1', 'NarrativeText', 'Granite was cut from the north face this year; the yield rose by a tenth.', 1),
    element('l1', 'ListItem', 'Blocks cut: 1,204', 1),
    element('l2', 'ListItem', 'Blocks shipped: 1,180 (Zürich, Kraków, 東京 🪨)', 1),
    element('p2', 'NarrativeText', long, 1),
    element('t2', 'Title', 'Tonnage by row', 2),
    element('tb', 'Table', tableText, 2, { text_as_html: `<table>${rows}</table>` }),
    element('p3', 'NarrativeText', 'The south face stays closed until the survey is done.', 2),
  ];
}

/**
 * The behaviour every chunker shares, as a vitest suite: only chunk types come out, none longer
 * than `max_characters`, no text lost or made up, fresh unique ids, `orig_elements` covering every
 * input element when asked, the input left as it was, nothing from nothing.
 *
 * @example
 * ```ts
 * import { testChunkerConformance } from '@quarry/nodes/testing';
 * testChunkerConformance('my-chunker', (elements, options) => myChunker(elements, options));
 * ```
 */
export function testChunkerConformance(name: string, chunk: ChunkerUnderTest): void {
  describe(`chunker conformance: ${name}`, () => {
    it('makes nothing of no elements', async () => {
      expect(await chunk([], { max_characters: 200 })).toEqual([]);
    });

    it.each([120, 200, 500])('gives only chunks of at most %i characters, keeping every word in order', async (max) => {
      const input = conformanceDocument();
      const chunks = await chunk(input, { max_characters: max });
      expect(chunks.length).toBeGreaterThan(1);
      for (const c of chunks) {
        expect(CHUNK_TYPES.has(c.type), `chunk type ${c.type}`).toBe(true);
        expect(length(c.text), `chunk "${c.text.slice(0, 40)}..."`).toBeLessThanOrEqual(max);
        expect(c.metadata.filename).toBe('sample.pdf');
      }
      expect(collapse(chunks.map((c) => c.text).join(' '))).toBe(collapse(input.map((e) => e.text).join(' ')));
    });

    it('gives chunks fresh, unique ids', async () => {
      const input = conformanceDocument();
      const ids = (await chunk(input, { max_characters: 200 })).map((c) => c.element_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const e of input) expect(ids).not.toContain(e.element_id);
    });

    it('lists the elements each chunk came from when asked, every input element in some chunk', async () => {
      const input = conformanceDocument();
      const chunks = await chunk(input, { max_characters: 200, include_orig_elements: true });
      const seen = new Set<string>();
      for (const c of chunks) {
        const orig = c.metadata.orig_elements;
        expect(Array.isArray(orig) && orig.length > 0, 'orig_elements').toBe(true);
        for (const o of orig as Element[]) seen.add(o.element_id);
      }
      expect([...seen].sort()).toEqual(input.map((e) => e.element_id).sort());
    });

    it('leaves its input as it was', async () => {
      const input = conformanceDocument();
      const before = structuredClone(input);
      await chunk(input, { max_characters: 200, include_orig_elements: true });
      expect(input).toEqual(before);
    });
  });
}
