/**
 * Reading order of boxes on a page (recursive XY-cut).
 */
import type { Box } from './layout-types.js';

/**
 * Orders boxes by recursive XY-cut. A region is cut at vertical gaps first (columns, read left to
 * right). When it has none, it is cut into rows at horizontal gaps, and consecutive rows that
 * together still have a vertical gap are kept together and cut into columns: a title spanning both
 * columns is read first, then each column whole, even where paragraph gaps of the two columns
 * happen to line up. A region that cannot be cut is read top to bottom, left to right.
 */
export function orderBlocks<T extends { box: Box }>(blocks: readonly T[]): T[] {
  const out: T[] = [];
  xyCut([...blocks], out);
  return out;
}

const MIN_COLUMN_GAP = 1;
const MIN_ROW_GAP = -0.5;

function xyCut<T extends { box: Box }>(items: T[], out: T[]): void {
  if (items.length <= 1) {
    out.push(...items);
    return;
  }
  const columns = splitAtGaps(items, 'x', MIN_COLUMN_GAP);
  if (columns.length > 1) {
    for (const c of columns) xyCut(c, out);
    return;
  }
  const rows = splitAtGaps(items, 'y', MIN_ROW_GAP);
  if (rows.length <= 1) {
    out.push(...items.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0));
    return;
  }
  // Adding rows can only close vertical gaps, so the run of rows is grown until it stops being
  // cuttable into columns.
  let i = 0;
  while (i < rows.length) {
    let group = rows[i]!;
    let j = i + 1;
    while (j < rows.length) {
      const candidate = group.concat(rows[j]!);
      if (splitAtGaps(candidate, 'x', MIN_COLUMN_GAP).length < 2) break;
      group = candidate;
      j++;
    }
    xyCut(group, out);
    i = j;
  }
}

/** Splits items into groups separated by gaps wider than `minGap` along one axis. */
function splitAtGaps<T extends { box: Box }>(items: T[], axis: 'x' | 'y', minGap: number): T[][] {
  const start = axis === 'x' ? (t: T) => t.box.x0 : (t: T) => t.box.y0;
  const end = axis === 'x' ? (t: T) => t.box.x1 : (t: T) => t.box.y1;
  const sorted = [...items].sort((a, b) => start(a) - start(b));
  const groups: T[][] = [];
  let current: T[] = [];
  let reach = -Infinity;
  for (const item of sorted) {
    if (current.length > 0 && start(item) > reach + minGap) {
      groups.push(current);
      current = [];
    }
    current.push(item);
    reach = Math.max(reach, end(item));
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
