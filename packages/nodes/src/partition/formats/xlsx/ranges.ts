/** Rows of Excel's largest sheet. */
export const MAX_ROW = 1_048_576;
/** Columns of Excel's largest sheet (XFD). */
export const MAX_COL = 16_384;

/** A rectangle of cells (1-based, inclusive), e.g. a merged range. */
export interface CellRange {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** The 1-based column of column letters (`A` = 1, `XFD` = 16384); `undefined` past Excel's last column. */
export function columnNumber(letters: string): number | undefined {
  let n = 0;
  for (let i = 0; i < letters.length; i++) {
    n = n * 26 + (letters.charCodeAt(i) & ~32) - 64;
    if (n > MAX_COL) return undefined;
  }
  return n > 0 ? n : undefined;
}

const CELL_REF = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})?$/;

/** Row and column of a reference such as `B7` (`row` is `undefined` for a bare column). */
export function parseCellRef(ref: string): { row: number | undefined; col: number } | undefined {
  const m = CELL_REF.exec(ref.trim());
  const col = m && columnNumber(m[1]!);
  if (!m || !col) return undefined;
  const row = m[2] === undefined ? undefined : Number(m[2]);
  if (row !== undefined && (row < 1 || row > MAX_ROW)) return undefined;
  return { row, col };
}

/** The range of a reference such as `A1:C3` (or `B2`, one cell), corners in either order. */
export function parseRange(ref: string): CellRange | undefined {
  const [a, b = a] = ref.split(':');
  const from = parseCellRef(a!);
  const to = parseCellRef(b!);
  if (!from?.row || !to?.row) return undefined;
  return { top: Math.min(from.row, to.row), bottom: Math.max(from.row, to.row), left: Math.min(from.col, to.col), right: Math.max(from.col, to.col) };
}

/**
 * The merged ranges covering each row, asked for rows in increasing order (a sweep): merges enter
 * at their top row and leave after their bottom one, so a merge spanning a whole sheet costs one
 * entry, not a million rows of cells.
 */
export class MergeSweep {
  private readonly pending: CellRange[];
  private next = 0;
  private active: CellRange[] = [];
  private row = 0;

  constructor(merges: readonly CellRange[]) {
    this.pending = [...merges].sort((a, b) => a.top - b.top);
  }

  /** Moves to `row` (not before the previous row asked); returns the merges covering it, by left column. */
  at(row: number): readonly CellRange[] {
    if (row < this.row) throw new RangeError(`MergeSweep asked for row ${row} after row ${this.row}`);
    if (row === this.row) return this.active;
    this.row = row;
    let changed = false;
    if (this.active.some((m) => m.bottom < row)) {
      this.active = this.active.filter((m) => m.bottom >= row);
      changed = true;
    }
    while (this.next < this.pending.length && this.pending[this.next]!.top <= row) {
      const m = this.pending[this.next++]!;
      if (m.bottom >= row) {
        this.active.push(m);
        changed = true;
      }
    }
    if (changed) this.active.sort((a, b) => a.left - b.left);
    return this.active;
  }
}

/** The merge of `covering` (one row's merges, by left column) holding column `col`, if any. */
export function mergeAt(covering: readonly CellRange[], col: number): CellRange | undefined {
  let lo = 0;
  let hi = covering.length - 1;
  let found: CellRange | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (covering[mid]!.left <= col) {
      found = covering[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found && found.right >= col ? found : undefined;
}
