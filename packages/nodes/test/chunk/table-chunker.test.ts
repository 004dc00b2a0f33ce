import { describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { chunkingOptions } from '../../src/chunk/options.js';
import { tableChunks } from '../../src/chunk/table-chunker.js';
import { TextSplitter } from '../../src/chunk/text-splitter.js';
import { el } from './helpers.js';

function run(table: Element, input: Parameters<typeof chunkingOptions>[1] = {}, prefix = ''): Element[] {
  const opts = chunkingOptions('basic', input);
  return tableChunks(table, prefix, { opts, splitter: new TextSplitter(opts.max_characters, opts.overlap) });
}

const HEADED =
  '<table><thead><tr><th>Header A</th><th>Header B</th></tr><tr><th>Subhead A</th><th>Subhead B</th></tr></thead>' +
  '<tbody><tr><td>Body 1</td><td>Alpha</td></tr><tr><td>Body 2</td><td>Bravo</td></tr><tr><td>Body 3</td><td>Charlie</td></tr><tr><td>Body 4</td><td>Delta</td></tr></tbody></table>';
const headedTable = () =>
  el('Table', 'Header A Header B\nSubhead A Subhead B\nBody 1 Alpha\nBody 2 Bravo\nBody 3 Charlie\nBody 4 Delta', {
    text_as_html: HEADED,
    filename: 'f.pdf',
    parent_id: 'p1',
  });

describe('tableChunks', () => {
  it('emits one Table with stripped text and compact HTML when both fit', () => {
    const table = el('Table', '  Key\n  Value  ', {
      text_as_html: '<table class="c"> <tr> <th>Key</th> </tr> <tr> <td>Value</td> </tr> </table>',
      parent_id: 'x',
    });
    const [chunk, ...rest] = run(table, { include_orig_elements: true });
    expect(rest).toEqual([]);
    expect(chunk?.type).toBe('Table');
    expect(chunk?.text).toBe('Key\n  Value');
    expect(chunk?.metadata.text_as_html).toBe('<table><tr><td>Key</td></tr><tr><td>Value</td></tr></table>');
    expect(chunk?.metadata.parent_id).toBeUndefined();
    expect(chunk?.metadata.orig_elements).toEqual([table]);
    expect(chunk?.element_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('gives no chunk for a table without text', () => {
    expect(run(el('Table', ' \n ', { text_as_html: '<table><tr><td>x</td></tr></table>' }))).toEqual([]);
  });

  it('splits by rows and repeats header rows in text and HTML of continuation chunks', () => {
    const table = headedTable();
    const chunks = run(table, { max_characters: 55, include_orig_elements: true });
    expect(chunks.map((c) => c.type)).toEqual(['TableChunk', 'TableChunk', 'TableChunk', 'TableChunk']);
    expect(chunks.map((c) => c.text)).toEqual([
      'Header A Header B Subhead A Subhead B Body 1 Alpha',
      'Header A Header B Subhead A Subhead B Body 2 Bravo',
      'Header A Header B Subhead A Subhead B Body 3 Charlie',
      'Header A Header B Subhead A Subhead B Body 4 Delta',
    ]);
    expect(chunks[0]?.metadata.text_as_html).toBe(
      '<table><tr><td>Header A</td><td>Header B</td></tr><tr><td>Subhead A</td><td>Subhead B</td></tr><tr><td>Body 1</td><td>Alpha</td></tr></table>',
    );
    expect(chunks[1]?.metadata.text_as_html).toBe(
      '<table><thead><tr><th>Header A</th><th>Header B</th></tr><tr><th>Subhead A</th><th>Subhead B</th></tr></thead><tr><td>Body 2</td><td>Bravo</td></tr></table>',
    );
    const ids = new Set(chunks.map((c) => c.metadata.table_id));
    expect(ids.size).toBe(1);
    expect(chunks.map((c) => c.metadata.chunk_index)).toEqual([0, 1, 2, 3]);
    expect(chunks.map((c) => c.metadata.is_continuation)).toEqual([undefined, true, true, true]);
    expect(chunks.map((c) => c.metadata.num_carried_over_header_rows)).toEqual([0, 2, 2, 2]);
    expect(chunks.every((c) => c.metadata.filename === 'f.pdf' && c.metadata.parent_id === undefined)).toBe(true);
    expect(chunks.every((c) => JSON.stringify(c.metadata.orig_elements) === JSON.stringify([table]))).toBe(true);
  });

  it('packs rows without repeated headers when repeat_table_headers is off', () => {
    const chunks = run(headedTable(), { max_characters: 55, repeat_table_headers: false });
    expect(chunks.map((c) => c.text)).toEqual(['Header A Header B Subhead A Subhead B Body 1 Alpha', 'Body 2 Bravo Body 3 Charlie Body 4 Delta']);
    expect(chunks.map((c) => c.metadata.num_carried_over_header_rows)).toEqual([0, 0]);
  });

  it('does not repeat a header row longer than half the window', () => {
    const html = `<table><tr><th>${'h'.repeat(40)}</th></tr><tr><td>${'a'.repeat(30)}</td></tr><tr><td>${'b'.repeat(30)}</td></tr></table>`;
    const chunks = run(el('Table', 'x'.repeat(120), { text_as_html: html }), { max_characters: 75 });
    expect(chunks.map((c) => c.text)).toEqual([`${'h'.repeat(40)} ${'a'.repeat(30)}`, 'b'.repeat(30)]);
  });

  it('splits an oversized row on cell boundaries and an oversized cell on words', () => {
    const long = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const html = `<table><tr><td>${'a'.repeat(30)}</td><td>${'b'.repeat(30)}</td><td>${long}</td></tr></table>`;
    const chunks = run(el('Table', 'text', { text_as_html: html }), { max_characters: 60 });
    expect(chunks[0]?.text).toBe(`${'a'.repeat(30)}`);
    expect(chunks[0]?.metadata.text_as_html).toBe(`<table><tr><td>${'a'.repeat(30)}</td></tr></table>`);
    expect(chunks[1]?.text).toBe('b'.repeat(30));
    // cell pieces are cut to max - 33 characters
    for (const c of chunks.slice(2)) {
      expect(c.text.length).toBeLessThanOrEqual(27);
      expect(c.metadata.text_as_html).toBe(`<table><tr><td>${c.text}</td></tr></table>`);
    }
    expect(
      chunks
        .slice(2)
        .map((c) => c.text)
        .join(' '),
    ).toBe(long);
  });

  it('splits as plain text below 50 characters or without HTML, keeping inner spacing', () => {
    const table = el('Table', 'Header Col 1   Header Col 2\nLorem ipsum   dolor sit amet', { text_as_html: '<table/>' });
    const chunks = run(table, { max_characters: 30 });
    expect(chunks.map((c) => [c.type, c.text, c.metadata.text_as_html])).toEqual([
      ['TableChunk', 'Header Col 1   Header Col 2', undefined],
      ['TableChunk', 'Lorem ipsum   dolor sit amet', undefined],
    ]);
    const noHtml = run(el('Table', 'x '.repeat(60)), { max_characters: 60 });
    expect(noHtml.map((c) => [c.text.length, c.metadata.text_as_html])).toEqual([
      [59, undefined],
      [59, undefined],
    ]);
  });

  it('puts an overlap prefix before the table text (only without table isolation)', () => {
    const [chunk] = run(el('Table', 'A B'), { isolate_table: false }, 'tail');
    expect(chunk?.text).toBe('tail\nA B');
  });
});
