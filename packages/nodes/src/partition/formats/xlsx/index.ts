import type { Element, ElementMetadata } from '@quarry/core';
import type { FormatPartitioner } from '../../types.js';
import { newElement } from '../shared/new-element.js';
import { cleanBullets, isBulletedText, isPossibleNarrativeText, isPossibleNumberedList, isPossibleTitle } from '../../text-classify.js';
import { collapseKeyedMatrix, htmlifySpannedMatrix, matrixText } from '../shared/table-html.js';
import { MergeSweep, mergeAt } from './ranges.js';
import { cellKey, neighbourKeys, type SheetCell, type SheetGrid } from './sheet.js';
import { XlsxWorkbook } from './workbook.js';

/**
 * XLSX: each worksheet is split, as `unstructured` does, into connected regions of populated cells
 * (4-neighbour connectivity; regions whose row ranges overlap are merged). In each region the
 * leading and trailing rows holding a single populated cell become text elements (classified as
 * Title, NarrativeText, ListItem or UncategorizedText) and the rows between them one `Table` with
 * `text_as_html`. Merged cells count as empty for the region search, as they do for pandas, but
 * inside a table they become `colspan`/`rowspan`. Every element carries `page_name` (sheet name)
 * and `page_number` (sheet position, from 1). Hidden sheets are included, like pandas does; a
 * sheet whose part the package lacks is skipped with a warning.
 */
export const xlsxPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const workbook = await XlsxWorkbook.open(bytes, options.filename, options.logger);
    const elements: Element[] = [];
    for (const [index, sheet] of workbook.sheets.entries()) {
      options.signal.throwIfAborted();
      const grid = await workbook.read(sheet);
      if (grid) elements.push(...partitionSheet(grid, sheet.name, index + 1));
      else
        options.logger.warn(`${options.filename}: sheet "${sheet.name}" is skipped: its part ${sheet.part} is missing from the workbook`, {
          filename: options.filename,
          part: sheet.part,
        });
    }
    return elements;
  },
};

function partitionSheet(grid: SheetGrid, name: string, pageNumber: number): Element[] {
  const metadata = () => ({ page_name: name, page_number: pageNumber });
  // Regions come by increasing, disjoint row ranges: one sweep finds the merges of every table row.
  const merges = new MergeSweep(grid.merges);
  const out: Element[] = [];
  for (const box of regions(grid)) {
    const rows: SheetCell[][] = [];
    for (let r = box.top; r <= box.bottom; r++) {
      const row: SheetCell[] = [];
      for (let c = box.left; c <= box.right; c++) {
        const cell = grid.cells.get(cellKey(r, c));
        if (cell) row.push(cell);
      }
      rows.push(row);
    }
    const single = rows.map((r) => r.length === 1);
    let lead = 0;
    while (lead < rows.length && single[lead]) lead++;
    let trail = rows.length;
    if (lead < rows.length) while (trail > lead && single[trail - 1]) trail--;
    for (let i = 0; i < lead; i++) out.push(elementFromCellText(rows[i]![0]!.text, metadata()));
    if (lead < trail) {
      const matrix: Array<Array<[string, unknown]>> = [];
      for (let r = box.top + lead; r <= box.top + trail - 1; r++) {
        const row: Array<[string, unknown]> = [];
        const covering = merges.at(r);
        for (let c = box.left; c <= box.right; c++) {
          const k = cellKey(r, c);
          // A merged position's key is its merge, shared by all its positions.
          row.push([grid.cells.get(k)?.text ?? '', mergeAt(covering, c) ?? k]);
        }
        matrix.push(row);
      }
      const text = matrixText(matrix.map((r) => r.map(([t]) => t)));
      out.push(newElement('Table', text, { ...metadata(), text_as_html: htmlifySpannedMatrix(collapseKeyedMatrix(matrix)) }));
    }
    for (let i = trail; i < rows.length; i++) out.push(elementFromCellText(rows[i]![0]!.text, metadata()));
  }
  return out;
}

/** `unstructured`'s `_create_element`: the type of a lone cell's text outside a table. */
function elementFromCellText(text: string, metadata: ElementMetadata): Element {
  if (isBulletedText(text)) return newElement('ListItem', cleanBullets(text), metadata);
  if (isPossibleNumberedList(text)) return newElement('ListItem', text, metadata);
  if (isPossibleNarrativeText(text)) return newElement('NarrativeText', text, metadata);
  if (isPossibleTitle(text)) return newElement('Title', text, metadata);
  return newElement('UncategorizedText', text, metadata);
}

/** A bounding box of a connected region (1-based, inclusive). */
interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * The connected regions of populated cells, each as its bounding box, ordered by top row; regions
 * whose row ranges overlap are merged into one box (`unstructured`'s `_merge_overlapping_tables`).
 */
function regions(grid: SheetGrid): Box[] {
  const seen = new Set<number>();
  const boxes: Box[] = [];
  for (const [start, first] of grid.cells) {
    if (seen.has(start)) continue;
    const box: Box = { top: first.row, bottom: first.row, left: first.col, right: first.col };
    const stack = [start];
    seen.add(start);
    while (stack.length) {
      const k = stack.pop()!;
      const cell = grid.cells.get(k)!;
      box.top = Math.min(box.top, cell.row);
      box.bottom = Math.max(box.bottom, cell.row);
      box.left = Math.min(box.left, cell.col);
      box.right = Math.max(box.right, cell.col);
      for (const n of neighbourKeys(k)) {
        if (!seen.has(n) && grid.cells.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    boxes.push(box);
  }
  boxes.sort((a, b) => a.top - b.top || a.left - b.left);
  const merged: Box[] = [];
  for (const b of boxes) {
    const cur = merged[merged.length - 1];
    if (cur && b.top <= cur.bottom) {
      cur.bottom = Math.max(cur.bottom, b.bottom);
      cur.left = Math.min(cur.left, b.left);
      cur.right = Math.max(cur.right, b.right);
    } else merged.push({ ...b });
  }
  return merged;
}
