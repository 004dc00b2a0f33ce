/**
 * Reference tables from JSON (the ICDAR 2013 dev set's shape: `tables` with `html` or `cells`) and
 * predicted tables from quarry's element JSON.
 */
import type { PredictedTable, ReferenceTable } from './table-scores.js';

/** One cell of a reference table given as a cell list. */
export interface ReferenceCell {
  /** 0-based grid position of the cell's top-left corner. */
  row: number;
  col: number;
  row_span?: number;
  col_span?: number;
  text: string;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/**
 * HTML of a table given as a cell list: one row per grid row, each cell at its top-left position
 * with its spans, and an empty `<td></td>` where no cell covers a grid position.
 */
export function cellsToHtml(cells: readonly ReferenceCell[]): string {
  const rows = Math.max(0, ...cells.map((c) => c.row + (c.row_span ?? 1)));
  const cols = Math.max(0, ...cells.map((c) => c.col + (c.col_span ?? 1)));
  const covered = new Set<number>();
  const at = new Map<number, ReferenceCell>();
  for (const c of cells) {
    at.set(c.row * cols + c.col, c);
    for (let r = c.row; r < c.row + (c.row_span ?? 1); r++) for (let k = c.col; k < c.col + (c.col_span ?? 1); k++) covered.add(r * cols + k);
  }
  let html = '<table>';
  for (let r = 0; r < rows; r++) {
    html += '<tr>';
    for (let k = 0; k < cols; k++) {
      const c = at.get(r * cols + k);
      if (c) {
        const cs = c.col_span ?? 1;
        const rs = c.row_span ?? 1;
        html += `<td${cs > 1 ? ` colspan="${cs}"` : ''}${rs > 1 ? ` rowspan="${rs}"` : ''}>${escapeHtml(c.text)}</td>`;
      } else if (!covered.has(r * cols + k)) html += '<td></td>';
    }
    html += '</tr>';
  }
  return `${html}</table>`;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function cellList(x: unknown, where: string): ReferenceCell[] {
  if (!Array.isArray(x)) throw new Error(`${where}.cells is not an array`);
  return x.map((c: unknown, i) => {
    const at = `${where}.cells[${i}]`;
    if (!isObject(c)) throw new Error(`${at} is not an object`);
    const int = (k: string, min: number, optional: boolean): number | undefined => {
      const v = c[k];
      if (v === undefined && optional) return undefined;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new Error(`${at}.${k} must be an integer >= ${min}`);
      return v;
    };
    return {
      row: int('row', 0, false)!,
      col: int('col', 0, false)!,
      row_span: int('row_span', 1, true),
      col_span: int('col_span', 1, true),
      text: typeof c.text === 'string' ? c.text : '',
    };
  });
}

function tableOf(x: unknown, where: string): { html: string; pages?: number[] } {
  if (!isObject(x)) throw new Error(`${where} is not an object`);
  let html: string;
  if (typeof x.html === 'string') html = x.html;
  else if (x.cells !== undefined) html = cellsToHtml(cellList(x.cells, where));
  else throw new Error(`${where} has neither "html" nor "cells"`);
  const pages = new Set<number>();
  if (typeof x.page === 'number') pages.add(x.page);
  if (Array.isArray(x.regions)) for (const r of x.regions) if (isObject(r) && typeof r.page === 'number') pages.add(r.page);
  return pages.size ? { html, pages: [...pages].sort((a, b) => a - b) } : { html };
}

/**
 * Reads reference tables from parsed JSON: `{ "tables": [...], "alternative_tables": [...] }` where
 * each table has `html` (with `rowspan`/`colspan`) or `cells` (`row`, `col`, `row_span`, `col_span`,
 * `text`) and optionally `page` or `regions[].page`; `alternative_tables[i]`, when present, is
 * another acceptable reading of `tables[i]`. Throws an Error naming the field that is wrong.
 */
export function referenceTablesOf(json: unknown): ReferenceTable[] {
  if (!isObject(json) || !Array.isArray(json.tables)) throw new Error('no "tables" array');
  const alternatives = Array.isArray(json.alternative_tables) ? json.alternative_tables : [];
  return json.tables.map((t: unknown, i) => {
    const table: ReferenceTable = tableOf(t, `tables[${i}]`);
    if (alternatives[i] !== undefined) table.alternatives = [tableOf(alternatives[i], `alternative_tables[${i}]`).html];
    return table;
  });
}

/** The Table elements of quarry's element JSON, with `metadata.text_as_html` and `metadata.page_number`. */
export function predictedTablesOf(elements: readonly unknown[]): PredictedTable[] {
  const tables: PredictedTable[] = [];
  for (const e of elements) {
    if (!isObject(e) || e.type !== 'Table') continue;
    const md = isObject(e.metadata) ? e.metadata : {};
    tables.push({
      text: typeof e.text === 'string' ? e.text : '',
      ...(typeof md.text_as_html === 'string' && md.text_as_html ? { html: md.text_as_html } : {}),
      ...(typeof md.page_number === 'number' ? { page: md.page_number } : {}),
    });
  }
  return tables;
}
