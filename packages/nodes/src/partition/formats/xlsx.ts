import type { Cell, CellValue, Workbook, Worksheet } from 'exceljs';
import { assertZipWithinLimits, DEFAULT_ZIP_LIMITS, type PartsCap } from './zip-guard.js';
import { limitError, partitionLimits } from '../limits.js';
import type { Element, ElementMetadata } from '@quarry/core';
import { errorMessage, quarryError } from '@quarry/core/errors';
import type { FormatPartitioner } from '../types.js';
import { newElement } from './new-element.js';
import { cleanBullets, isBulletedText, isPossibleNarrativeText, isPossibleNumberedList, isPossibleTitle } from '../text-classify.js';
import { collapseKeyedMatrix, htmlifySpannedMatrix, matrixText } from './table-html.js';

/** A populated cell of a sheet (1-based row and column). */
interface SheetCell {
  row: number;
  col: number;
  text: string;
}

/** Everything the partitioner needs from one worksheet. */
interface SheetGrid {
  /** Populated cells keyed by {@link key}. */
  cells: Map<number, SheetCell>;
  /** Merge key of each merged (slave) position: the master's address. */
  mergeKeys: Map<number, string>;
}

// Excel's column limit is 16384; a wider stride keeps keys unique.
const STRIDE = 1 << 15;
const key = (row: number, col: number): number => row * STRIDE + col;

/**
 * XLSX: each worksheet is split, as the reference does, into connected regions of populated cells
 * (4-neighbour connectivity; regions whose row ranges overlap are merged). In each region the
 * leading and trailing rows holding a single populated cell become text elements (classified as
 * Title, NarrativeText, ListItem or UncategorizedText) and the rows between them one `Table` with
 * `text_as_html`. Merged cells count as empty for the region search, as they do for pandas, but
 * inside a table they become `colspan`/`rowspan`. Every element carries `page_name` (sheet name)
 * and `page_number` (sheet position, from 1). Hidden sheets are included, like pandas does.
 */
export const xlsxPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const workbook = await loadWorkbook(bytes, options.filename);
    const elements: Element[] = [];
    workbook.worksheets.forEach((sheet, index) => {
      options.signal.throwIfAborted();
      elements.push(...partitionSheet(sheet, index + 1));
    });
    return elements;
  },
};

async function loadWorkbook(bytes: Uint8Array, filename: string): Promise<Workbook> {
  // exceljs inflates the whole archive with no limit and holds every sheet: measure it first.
  const limits = partitionLimits();
  const xmlCap: PartsCap = { maxBytes: limits.maxXmlBytes, used: 0, error: (used) => limitError('FILE_TOO_LARGE', 'maxXmlBytes', filename, used, limits) };
  await assertZipWithinLimits(bytes, filename, 'XLSX', DEFAULT_ZIP_LIMITS, xmlCap);
  // exceljs is heavy; load it only when a spreadsheet is partitioned.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs declares an old `Buffer` type; a Node Buffer view over the same bytes satisfies it.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (e) {
    throw quarryError('FILE_UNREADABLE', `${filename}: not a readable XLSX file: ${workbookProblem(e)}`, {
      cause: e,
      details: { filename, reason: errorMessage(e) },
    });
  }
  return workbook;
}

/**
 * What exceljs's failure says about the file, in words: its messages are an XML parser's ("Text
 * data outside of root node. Line: 1") or its own internals ("Cannot set properties of undefined
 * (setting 'sheetNo')" when the workbook names a sheet its package lacks).
 */
function workbookProblem(e: unknown): string {
  const m = errorMessage(e);
  if (/Line: \d+|Column: \d+|\d+:\d+:|Unexpected close tag|outside of root node|Invalid character|Unclosed root tag|Attribute without value|Non-whitespace before first tag/i.test(m)) return 'a part of the workbook is not well-formed XML';
  if (/zip|central directory|signature/i.test(m)) return 'the ZIP archive is damaged';
  return 'the workbook\'s parts are damaged or do not match each other (a sheet, style or string it names is missing or malformed)';
}

function partitionSheet(sheet: Worksheet, pageNumber: number): Element[] {
  const grid = readGrid(sheet);
  const metadata = () => ({ page_name: sheet.name, page_number: pageNumber });
  const out: Element[] = [];
  for (const box of regions(grid)) {
    const rows: SheetCell[][] = [];
    for (let r = box.top; r <= box.bottom; r++) {
      const row: SheetCell[] = [];
      for (let c = box.left; c <= box.right; c++) {
        const cell = grid.cells.get(key(r, c));
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
        for (let c = box.left; c <= box.right; c++) {
          const k = key(r, c);
          row.push([grid.cells.get(k)?.text ?? '', grid.mergeKeys.get(k) ?? k]);
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

/** The reference's `_create_element`: the type of a lone cell's text outside a table. */
function elementFromCellText(text: string, metadata: ElementMetadata): Element {
  if (isBulletedText(text)) return newElement('ListItem', cleanBullets(text), metadata);
  if (isPossibleNumberedList(text)) return newElement('ListItem', text, metadata);
  if (isPossibleNarrativeText(text)) return newElement('NarrativeText', text, metadata);
  if (isPossibleTitle(text)) return newElement('Title', text, metadata);
  return newElement('UncategorizedText', text, metadata);
}

function readGrid(sheet: Worksheet): SheetGrid {
  const cells = new Map<number, SheetCell>();
  const mergeKeys = new Map<number, string>();
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    row.eachCell({ includeEmpty: false }, (cell, colNumber) => {
      const k = key(rowNumber, colNumber);
      if (cell.isMerged) mergeKeys.set(k, cell.master.address);
      // A merge's slave positions repeat the master's value in exceljs but are empty in the file.
      if (cell.isMerged && cell.master !== cell) return;
      const text = cellText(cell);
      if (text.trim()) cells.set(k, { row: rowNumber, col: colNumber, text });
    });
  });
  return { cells, mergeKeys };
}

/** The displayed text of a cell's value (formulas give their cached result). */
function cellText(cell: Cell): string {
  return valueText(cell.value);
}

function valueText(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date) return formatDate(v);
  if ('richText' in v) return v.richText.map((t) => t.text).join('');
  if ('error' in v) return String(v.error);
  if ('hyperlink' in v) return typeof v.text === 'string' ? v.text : valueText(v.text as CellValue);
  if ('formula' in v || 'sharedFormula' in v) return valueText((v.result ?? null) as CellValue);
  return '';
}

function formatNumber(n: number): string {
  // Binary floating point noise such as 0.30000000000000004 is not what a spreadsheet shows.
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(15)));
}

function formatDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const iso = d.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
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
 * whose row ranges overlap are merged into one box (the reference's `_merge_overlapping_tables`).
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
      for (const n of [k - STRIDE, k + STRIDE, k - 1, k + 1]) {
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
