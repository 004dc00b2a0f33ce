import { cellText, decodeXString, type CellContext } from './cell-text.js';
import { MAX_COL, MAX_ROW, MergeSweep, mergeAt, parseCellRef, parseRange, type CellRange } from './ranges.js';
import { walkXml } from './sax.js';

/** A cell of a sheet showing some text (1-based row and column). */
export interface SheetCell {
  row: number;
  col: number;
  text: string;
}

/** What the partitioner reads of one worksheet. */
export interface SheetGrid {
  /** The cells showing non-blank text, keyed by {@link cellKey}. */
  cells: Map<number, SheetCell>;
  /** The merged ranges (`<mergeCells>`). */
  merges: CellRange[];
}

// Excel's column limit is 16384; a wider stride keeps keys unique.
const STRIDE = 1 << 15;

/** A number unique to a cell position, ordered by row then column. */
export const cellKey = (row: number, col: number): number => row * STRIDE + col;

/** The neighbours of a position's key: above, below, left, right. */
export const neighbourKeys = (key: number): readonly number[] => [key - STRIDE, key + STRIDE, key - 1, key + 1];

/** The cell being read: its position, type, style and the text of its value. */
interface OpenCell {
  row: number;
  col: number;
  type: string | undefined;
  style: number;
  value: string | undefined;
}

/**
 * Reads a worksheet part (`xl/worksheets/sheetN.xml`): each cell's shown text (formulas give their
 * cached result) and the merged ranges. Rows and cells without a reference take the next position,
 * as the format allows; cells past Excel's 1,048,576 rows or 16,384 columns are ignored. A merge
 * shows its top-left cell's value: values stored in its other cells are dropped, as Excel does.
 */
export function readSheet(xml: string, context: CellContext, dateStyles: readonly boolean[]): SheetGrid {
  const cells = new Map<number, SheetCell>();
  const merges: CellRange[] = [];
  let inSheetData = false;
  let inMerges = false;
  let row = 0;
  let col = 0;
  let cell: OpenCell | undefined;
  // Inside a cell: collecting `<v>` or an inline string's `<t>`, and how deep in phonetic runs.
  let capturing: 'v' | 't' | undefined;
  let captured = '';
  let inline: string | undefined;
  let phonetic = 0;

  walkXml(xml, {
    open(name, attrs) {
      if (cell) {
        if (name === 'v') {
          capturing = 'v';
          captured = '';
        } else if (name === 'is') inline = '';
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && inline !== undefined && phonetic === 0) {
          capturing = 't';
          captured = '';
        }
        return;
      }
      if (inSheetData) {
        if (name === 'row') {
          const r = Number.parseInt(attrs.r ?? '', 10);
          row = r >= 1 ? r : row + 1;
          col = 0;
        } else if (name === 'c') {
          const ref = attrs.r === undefined ? undefined : parseCellRef(attrs.r);
          col = ref ? ref.col : col + 1;
          const style = Number.parseInt(attrs.s ?? '0', 10);
          cell = { row, col, type: attrs.t, style: Math.max(style, 0), value: undefined };
          inline = undefined;
          phonetic = 0;
        }
      } else if (name === 'sheetData') inSheetData = true;
      else if (name === 'mergeCells') inMerges = true;
      else if (inMerges && name === 'mergeCell') {
        const range = parseRange(attrs.ref ?? '');
        if (range) merges.push(range);
      }
    },
    close(name) {
      if (cell) {
        if (name === 'v' && capturing === 'v') {
          cell.value = (cell.value ?? '') + captured;
          capturing = undefined;
        } else if (name === 't' && capturing === 't') {
          inline = (inline ?? '') + decodeXString(captured);
          capturing = undefined;
        } else if (name === 'rPh') phonetic--;
        else if (name === 'c') {
          if (inline !== undefined && cell.value === undefined) cell.value = inline;
          const text = cellText({ type: cell.type, value: cell.value, dateStyle: dateStyles[cell.style] === true }, context);
          if (text.trim() && cell.row >= 1 && cell.row <= MAX_ROW && cell.col <= MAX_COL)
            cells.set(cellKey(cell.row, cell.col), { row: cell.row, col: cell.col, text });
          cell = undefined;
        }
        return;
      }
      if (name === 'sheetData') inSheetData = false;
      else if (name === 'mergeCells') inMerges = false;
    },
    text(text) {
      if (capturing) captured += text;
    },
  });
  if (merges.length) dropCoveredValues(cells, merges);
  return { cells, merges };
}

/** Removes the values a merge hides: those of its cells other than the top-left one. */
function dropCoveredValues(cells: Map<number, SheetCell>, merges: readonly CellRange[]): void {
  const sweep = new MergeSweep(merges);
  for (const key of [...cells.keys()].sort((a, b) => a - b)) {
    const c = cells.get(key)!;
    const merge = mergeAt(sweep.at(c.row), c.col);
    if (merge && (c.row !== merge.top || c.col !== merge.left)) cells.delete(key);
  }
}
