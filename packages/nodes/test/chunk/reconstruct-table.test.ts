import { describe, expect, it } from 'vitest';
import { chunkByCharacter, reconstructTableFromChunks } from '../../src/chunk/index.js';
import { el } from './helpers.js';

const rows = Array.from({ length: 12 }, (_, i) => `<tr><td>row ${i}</td><td>value ${i * 7}</td></tr>`).join('');
const html = `<table><thead><tr><th>Name</th><th>Amount</th></tr></thead><tbody>${rows}</tbody></table>`;
const text = ['Name Amount', ...Array.from({ length: 12 }, (_, i) => `row ${i} value ${i * 7}`)].join('\n');

describe('reconstructTableFromChunks', () => {
  it('rebuilds a split table without the repeated header rows', () => {
    const table = el('Table', text, { text_as_html: html, page_number: 4 });
    const chunks = chunkByCharacter([el('Title', 'Before'), table, el('NarrativeText', 'After')], { max_characters: 80 });
    const tableChunks = chunks.filter((c) => c.type === 'TableChunk');
    expect(tableChunks.length).toBeGreaterThan(2);

    const [rebuilt, ...others] = reconstructTableFromChunks([...chunks].reverse());
    expect(others).toEqual([]);
    expect(rebuilt?.type).toBe('Table');
    expect(rebuilt?.text).toBe(text.split('\n').join(' '));
    const body = Array.from({ length: 12 }, (_, i) => `<tr><td>row ${i}</td><td>value ${i * 7}</td></tr>`).join('');
    expect(rebuilt?.metadata.text_as_html).toBe(`<table><thead><tr><th>Name</th><th>Amount</th></tr></thead>${body}</table>`);
    expect(rebuilt?.metadata.page_number).toBe(4);
    expect(rebuilt?.metadata.table_id).toBeUndefined();
    expect(rebuilt?.metadata.chunk_index).toBeUndefined();
    expect(rebuilt?.metadata.is_continuation).toBeUndefined();
  });

  it('groups several tables by table_id in order of first appearance', () => {
    const a = el('Table', 'a '.repeat(40));
    const b = el('Table', 'b '.repeat(40));
    const chunks = chunkByCharacter([a, b], { max_characters: 30 });
    const tables = reconstructTableFromChunks(chunks);
    expect(tables.map((t) => t.text)).toEqual([a.text.trim(), b.text.trim()]);
    expect(tables.every((t) => t.metadata.text_as_html === undefined)).toBe(true);
  });

  it('ignores everything but TableChunks', () => {
    expect(reconstructTableFromChunks(chunkByCharacter([el('NarrativeText', 'x'), el('Table', 'small')]))).toEqual([]);
  });
});
