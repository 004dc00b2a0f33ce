import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeOrigElements, elementsFromJSON, encodeOrigElements, origElementsOf, type Element } from '@quarry/core';
import { chunkByCharacter } from '../../src/chunk/index.js';
import { consolidateMetadata, copyMetadataValue, origElementsFor, origTableFor, tableChunkBaseMetadata } from '../../src/chunk/consolidate-metadata.js';
import { el } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const handbookChunks = path.resolve(repoRoot, '..', 'shared', 'corpus', 'expected', 'handbook-1p.docx.chunks.json');

describe('consolidateMetadata', () => {
  it('applies each field strategy', () => {
    const a = el('Title', 'A', {
      filename: 'a.docx',
      page_number: 2,
      languages: ['eng'],
      emphasized_text_contents: ['A'],
      emphasized_text_tags: ['b'],
      text_as_html: ' <p>A</p> ',
      coordinates: { points: [[0, 0]], system: 'PixelSpace', layout_width: 1, layout_height: 1 },
      parent_id: 'p',
      category_depth: 0,
      custom_field: 'ad hoc',
    });
    const b = el('NarrativeText', 'B', {
      filename: 'b.docx',
      page_number: 3,
      languages: ['fra', 'eng'],
      emphasized_text_contents: ['B'],
      emphasized_text_tags: ['i'],
      text_as_html: '<p>B</p>',
      link_urls: ['https://x'],
      is_continuation: true,
    });
    expect(consolidateMetadata([a, b])).toEqual({
      filename: 'a.docx',
      page_number: 2,
      languages: ['eng', 'fra'],
      emphasized_text_contents: ['A', 'B'],
      emphasized_text_tags: ['b', 'i'],
      text_as_html: '<p>A</p> <p>B</p>',
      link_urls: ['https://x'],
    });
  });

  it('takes the first present value, skipping null and undefined', () => {
    const md = consolidateMetadata([el('Title', 'x', { page_number: null as unknown as number }), el('Title', 'y', { page_number: 7 })]);
    expect(md.page_number).toBe(7);
  });

  it('does not share object values with the source elements', () => {
    const source = el('Title', 'x', { data_source: { url: 'file:///a' } });
    const md = consolidateMetadata([source]);
    expect(md.data_source).toEqual({ url: 'file:///a' });
    expect(md.data_source).not.toBe(source.metadata.data_source);
  });

  it('keeps fields in the order they first appear, multi-value fields included', () => {
    const md = consolidateMetadata([
      el('Title', 'x', { languages: ['eng'], page_number: 1 }),
      el('Title', 'y', { filename: 'f', languages: ['deu', 'eng'], text_as_html: ' <p>y</p>', emphasized_text_contents: ['y'] }),
      // Scalars where lists belong (loose input) count as one-item lists, as in the library.
      el('Title', 'z', { text_as_html: '<p>z</p> ', emphasized_text_contents: 'z' as unknown as string[], languages: 'fra' as unknown as string[] }),
    ]);
    expect(Object.keys(md)).toEqual(['languages', 'page_number', 'filename', 'text_as_html', 'emphasized_text_contents']);
    expect(md).toEqual({
      languages: ['eng', 'deu', 'fra'],
      page_number: 1,
      filename: 'f',
      text_as_html: '<p>y</p> <p>z</p>',
      emphasized_text_contents: ['y', 'z'],
    });
  });

  it('copies list values, so chunks never share arrays with their elements', () => {
    const source = el('Title', 'x', { languages: ['eng'], link_urls: ['u'], emphasized_text_tags: ['b'] });
    const md = consolidateMetadata([source]);
    expect(md.languages).not.toBe(source.metadata.languages);
    expect(md.link_urls).not.toBe(source.metadata.link_urls);
    expect(md).toEqual({ languages: ['eng'], link_urls: ['u'], emphasized_text_tags: ['b'] });
  });

  it('merges enrichment_origins and entities without duplicates', () => {
    const md = consolidateMetadata([
      el('Title', 'x', {
        enrichment_origins: { ner: [{ type: 'ner', provider: 'p' }] },
        entities: { items: [{ entity: 'A', type: 'ORG' }], relationships: [] },
      }),
      el('Title', 'y', {
        enrichment_origins: { ner: [{ type: 'ner', provider: 'p' }] },
        entities: { items: [{ entity: 'B', type: 'PER' }], relationships: [] },
      }),
    ]);
    expect(md.enrichment_origins).toEqual({ ner: [{ type: 'ner', provider: 'p' }] });
    expect(md.entities).toEqual({
      items: [
        { entity: 'A', type: 'ORG' },
        { entity: 'B', type: 'PER' },
      ],
      relationships: [],
    });
  });
});

describe('consolidateMetadata across chunks', () => {
  // Metadata drawn from a few shapes, so that consecutive chunks' first elements sometimes share
  // their kept fields (the template is reused) and sometimes do not (it is rebuilt), with dropped,
  // null and unknown fields mixed in.
  function metadataSets(seed: number): Element[][] {
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const shapes: Array<() => Record<string, unknown>> = [
      () => ({ filename: 'a.txt', languages: ['eng'], page_number: 1 + (next() % 3) }),
      () => ({ filename: 'a.txt', languages: ['eng', 'eng', 'deu'], page_number: 2, parent_id: 'p', coordinates: { points: [] } }),
      () => ({ page_number: 3, filename: null, languages: ['fra'], text_as_html: ` <p>${next() % 9}</p> `, link_urls: ['u', 'u'] }),
      () => ({ custom: 1, emphasized_text_contents: 'x', emphasized_text_tags: ['b'], enrichment_origins: [{ a: next() % 2 }] }),
      () => ({ entities: { items: [{ entity: 'E', type: 'T' }], relationships: [] }, languages: [], data_source: { url: 'u' } }),
      () => ({}),
    ];
    return Array.from({ length: 300 }, () =>
      Array.from({ length: 1 + (next() % 3) }, () => el('NarrativeText', 't', (shapes[next() % shapes.length] as () => Record<string, unknown>)())),
    );
  }

  it('gives each chunk the same metadata, key order included, whatever chunk came before', () => {
    const sets = metadataSets(3);
    const inOrder = sets.map((elements) => consolidateMetadata(elements));
    // The same chunks in reverse, and each after a chunk of another shape.
    const reversed = [...sets]
      .reverse()
      .map((elements) => consolidateMetadata(elements))
      .reverse();
    const interleaved = sets.map((elements, i) => {
      consolidateMetadata((sets[(i * 7 + 3) % sets.length] as Element[]).slice(0, 1));
      return consolidateMetadata(elements);
    });
    for (const other of [reversed, interleaved]) {
      expect(other).toEqual(inOrder);
      expect(other.map((m) => Object.keys(m))).toEqual(inOrder.map((m) => Object.keys(m)));
    }
    expect(inOrder.filter((m) => Object.keys(m).length > 0).length).toBeGreaterThan(100);
  });

  it('keeps first occurrences in list-unique fields, comparing like `includes` (NaN equal to NaN)', () => {
    expect(consolidateMetadata([el('Title', 'x', { languages: ['eng', 'deu', 'eng'] })]).languages).toEqual(['eng', 'deu']);
    expect(consolidateMetadata([el('Title', 'x', { languages: [NaN, NaN, 0, -0] as unknown as string[] })]).languages).toEqual([NaN, 0]);
    // A hole in a loose list is read as undefined, as iterating the list does.
    // biome-ignore lint/suspicious/noSparseArray: a hole is what this test feeds.
    const holey = ['a', , 'b'] as unknown as string[];
    expect(consolidateMetadata([el('Title', 'x', { languages: holey })]).languages).toEqual(['a', undefined, 'b']);
    expect(consolidateMetadata([el('Title', 'x', { link_urls: holey })]).link_urls).toEqual(['a', undefined, 'b']);
  });
});

describe('copyMetadataValue', () => {
  it('deep-copies JSON-shaped values and falls back to structuredClone for others', () => {
    const value = { a: [1, { b: 'c' }], d: null, e: new Date(0) };
    const copy = copyMetadataValue(value);
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[1]).not.toBe(value.a[1]);
    expect(copy.e).not.toBe(value.e);
    expect(copy.e.getTime()).toBe(0);
    expect(copyMetadataValue('s')).toBe('s');
  });
});

describe('table chunk metadata and orig_elements', () => {
  it('shares source elements without orig_elements, as the reference library does', () => {
    const a = el('Title', 'a', { filename: 'f' });
    const b = el('NarrativeText', 'b', { orig_elements: null as unknown as undefined });
    const out = origElementsFor([a, b]);
    expect(out[0]).toBe(a);
    expect(out[1]).toBe(b);
    // The pre-chunk's own list is kept as it is; the chunker's input list is never handed out.
    const list = [a, b];
    expect(origElementsFor(list)).toBe(list);
    const input = [a, el('NarrativeText', 'c')];
    const [chunk] = chunkByCharacter(input);
    expect(chunk?.metadata.orig_elements).toEqual(input);
    expect(chunk?.metadata.orig_elements).not.toBe(input);
  });

  it('keeps ad-hoc fields but drops chunk-only ones for tables', () => {
    const table = el('Table', 't', { text_as_html: '<table/>', table_id: 'old', parent_id: 'p', custom: { a: 1 }, orig_elements: 'eJw=' });
    const md = tableChunkBaseMetadata(table);
    expect(md).toEqual({ text_as_html: '<table/>', custom: { a: 1 } });
    expect(md.custom).not.toBe(table.metadata.custom);
  });

  it('clears nested orig_elements on copies and leaves the inputs untouched', () => {
    const inner = el('NarrativeText', 'inner');
    const chunk = el('NarrativeText', 'outer', { orig_elements: [inner], filename: 'f' });
    const [copy] = origElementsFor([chunk]);
    expect(copy).toEqual({ ...chunk, metadata: { filename: 'f' } });
    expect(chunk.metadata.orig_elements).toEqual([inner]);
    const [tableCopy] = origTableFor(el('Table', 'x', { orig_elements: [inner] }));
    expect(tableCopy?.metadata.orig_elements).toBeUndefined();
  });

  it('round-trips orig_elements through the compressed form', () => {
    const chunks = chunkByCharacter([
      el('Title', 'Intro', { filename: 'a.pdf', page_number: 1 }),
      el('NarrativeText', 'Body text.', { filename: 'a.pdf', page_number: 1 }),
    ]);
    const orig = origElementsOf(chunks[0] as Element) as Element[];
    expect(orig.map((e) => e.text)).toEqual(['Intro', 'Body text.']);
    expect(decodeOrigElements(encodeOrigElements(orig))).toEqual(orig);
  });
});

describe.skipIf(!existsSync(handbookChunks))(`reference chunks with compressed orig_elements (needs ${handbookChunks})`, () => {
  it("decodes every chunk's orig_elements and re-chunks them into the same chunks", () => {
    const reference = elementsFromJSON(JSON.parse(readFileSync(handbookChunks, 'utf8')), { source: 'handbook-1p.docx.chunks.json' });
    const sources: Element[] = [];
    for (const chunk of reference) {
      expect(typeof chunk.metadata.orig_elements).toBe('string');
      const orig = origElementsOf(chunk) as Element[];
      expect(orig.length).toBeGreaterThan(0);
      for (const o of orig) {
        expect(typeof o.text).toBe('string');
        expect(o.element_id).toMatch(/^[0-9a-f]{32}$/);
        if (sources.at(-1)?.element_id !== o.element_id) sources.push(o);
      }
    }
    // The reference ran `basic` with max_characters 150 and overlap 20.
    const ours = chunkByCharacter(sources, { max_characters: 150, overlap: 20 });
    expect(ours.map((c) => c.text)).toEqual(reference.map((c) => c.text));
    const strip = (c: Element) => {
      const { orig_elements: _o, ...rest } = c.metadata;
      return rest;
    };
    expect(ours.map(strip)).toEqual(reference.map(strip));
    expect(ours.map((c) => origElementsOf(c))).toEqual(reference.map((c) => origElementsOf(c)));
    // The reference's chunks carry hash ids; asked for them, ours are the same ids.
    const hashed = chunkByCharacter(sources, { max_characters: 150, overlap: 20, unique_element_ids: false });
    expect(hashed.map((c) => c.element_id)).toEqual(reference.map((c) => c.element_id));
  });
});
