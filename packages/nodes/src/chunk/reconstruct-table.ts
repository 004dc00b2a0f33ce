import type { Element, ElementMetadata } from '@quarry/core';
import { copyMetadataValue } from './consolidate-metadata.js';
import { cloneNode, iterNodes, parseHtmlFragment, serializeNode, type HtmlNode } from './html-table.js';
import { collapseWhitespace, pyLstrip } from './python-text.js';
import { randomUuid } from '@quarry/core/element';

function carriedRows(chunk: Element): number {
  const n = chunk.metadata.num_carried_over_header_rows;
  return typeof n === 'number' && n > 0 ? n : 0;
}

// Rows of a table fragment in document order: ./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr.
function topLevelRows(html: unknown): HtmlNode[] | undefined {
  if (typeof html !== 'string' || !html) return undefined;
  const table = parseHtmlFragment(html);
  if (!table) return undefined;
  const rows: HtmlNode[] = [];
  for (const child of table.children) {
    if (child.tag === 'tr') rows.push(child);
    else if (child.tag === 'thead' || child.tag === 'tbody' || child.tag === 'tfoot') {
      for (const r of child.children) if (r.tag === 'tr') rows.push(r);
    }
  }
  return rows;
}

function cellText(cell: HtmlNode): string {
  let s = '';
  for (const n of iterNodes(cell)) {
    if (n.text) s += ` ${n.text}`;
    if (n !== cell && n.tail) s += ` ${n.tail}`;
  }
  return collapseWhitespace(s);
}

function cellsOf(row: HtmlNode): HtmlNode[] {
  return row.children.filter((c) => c.tag === 'td' || c.tag === 'th');
}

function rowSignature(row: HtmlNode): string {
  return JSON.stringify(cellsOf(row).map(cellText));
}

// The carried header rows of the first continuation chunk whose rows match the first chunk's
// leading rows, with colspan/rowspan taken from the first chunk's cells.
function canonicalHeaderRows(chunks: Element[]): HtmlNode[] {
  const firstRows = topLevelRows((chunks[0] as Element).metadata.text_as_html);
  if (!firstRows) return [];
  for (const chunk of chunks) {
    const count = carriedRows(chunk);
    if (count <= 0) continue;
    const rows = topLevelRows(chunk.metadata.text_as_html);
    if (!rows || count > rows.length || firstRows.length < count) continue;
    const carried = rows.slice(0, count);
    if (!carried.every((r, i) => rowSignature(r) === rowSignature(firstRows[i] as HtmlNode))) continue;
    const canonical = carried.map(cloneNode);
    canonical.forEach((row, i) => {
      const originalCells = cellsOf(firstRows[i] as HtmlNode);
      cellsOf(row).forEach((cell, j) => {
        const source = originalCells[j];
        if (!source) return;
        for (const name of ['colspan', 'rowspan']) {
          const value = source.attrs.find(([k]) => k === name)?.[1];
          cell.attrs = cell.attrs.filter(([k]) => k !== name);
          if (value !== undefined) cell.attrs.push([name, value]);
        }
      });
    });
    return canonical;
  }
  return [];
}

function textWithoutCarriedHeaders(chunk: Element): string {
  const count = carriedRows(chunk);
  if (count === 0) return chunk.text;
  const rows = topLevelRows(chunk.metadata.text_as_html);
  if (!rows || count > rows.length) return chunk.text;
  const header = rows
    .slice(0, count)
    .flatMap((r) => cellsOf(r).map(cellText))
    .filter(Boolean)
    .join(' ');
  if (!header) return chunk.text;
  const text = pyLstrip(chunk.text);
  if (text === header) return '';
  if (text.startsWith(`${header} `)) return text.slice(header.length + 1);
  if (text.startsWith(header)) return pyLstrip(text.slice(header.length));
  return chunk.text;
}

function mergeTableChunks(chunks: Element[]): Element {
  const first = chunks[0] as Element;
  const text = chunks.map(textWithoutCarriedHeaders).filter(Boolean).join(' ');
  const { is_continuation: _c, table_id: _t, chunk_index: _i, num_carried_over_header_rows: _n, orig_elements: _o, ...rest } = first.metadata;
  const metadata: ElementMetadata = copyMetadataValue(rest);
  if (first.metadata.orig_elements !== undefined) metadata.orig_elements = first.metadata.orig_elements;

  if (chunks.every((c) => typeof c.metadata.text_as_html === 'string' && c.metadata.text_as_html)) {
    const canonical = canonicalHeaderRows(chunks);
    let html = '<table>';
    if (canonical.length > 0) html += `<thead>${canonical.map((r) => serializeNode(r)).join('')}</thead>`;
    for (const c of chunks) {
      const rows = topLevelRows(c.metadata.text_as_html) ?? [];
      const skip = c === first && canonical.length > 0 ? canonical.length : carriedRows(c);
      for (const r of rows.slice(skip)) html += serializeNode(r);
    }
    metadata.text_as_html = `${html}</table>`;
  } else delete metadata.text_as_html;

  return { element_id: randomUuid(), type: 'Table', text, metadata };
}

/**
 * Rebuilds the tables that chunking split into `TableChunk`s (the library's
 * `reconstruct_table_from_chunks`): chunks are grouped by `metadata.table_id` in order of first
 * appearance, sorted by `chunk_index`, carried-over header rows are removed from text and HTML,
 * and each group becomes one `Table`. Other elements are ignored.
 *
 * @example
 * ```ts
 * const tables = reconstructTableFromChunks(chunkByCharacter(elements, { max_characters: 200 }));
 * ```
 */
export function reconstructTableFromChunks(elements: readonly Element[]): Element[] {
  const groups = new Map<string, Element[]>();
  for (const el of elements) {
    if (el.type !== 'TableChunk') continue;
    const id = el.metadata.table_id;
    if (typeof id !== 'string') continue;
    const group = groups.get(id);
    if (group) group.push(el);
    else groups.set(id, [el]);
  }
  const indexOf = (c: Element): [number, number] => {
    const i = c.metadata.chunk_index;
    return typeof i === 'number' ? [0, i] : [1, 0];
  };
  return [...groups.values()].map((group) => {
    const sorted = [...group].sort((a, b) => {
      const [ka, ia] = indexOf(a);
      const [kb, ib] = indexOf(b);
      return ka - kb || ia - ib;
    });
    return mergeTableChunks(sorted);
  });
}
