/**
 * Tables ruled with lines (the lattice reading): the grids of `rulings.ts` filled with the page's
 * text. Text goes to the cell under each fragment's centre. Grid rows and columns that hold no text
 * (the gap between two cell frames drawn apart, a frame's margin) are dropped; a ruled band that
 * holds several rows of text with no rule between them (tables ruled only under the header and
 * around the body) is cut into those rows. Text inside a grid's box that falls in no cell (a note
 * inside the outer frame, a region the grid does not model) is no table text: it goes back to the
 * lines left outside, so no character of the page is lost.
 */
import type { Box, TableCell, TableCells, TextBlock, TextFragment, TextLine } from './layout-types.js';
import { findRuledGrids, mergeRulings, type GridCell, type RuledGrid, type Ruling } from './rulings.js';
import { tableFont, joinLineTexts } from './text-blocks.js';
import { buildLines } from './text-lines.js';

// A ruled grid is a table when at least this share of its cells hold text (charts' gridlines do not).
const MIN_FILLED_SHARE = 0.4;
// A rejected grid of this many cells is a chart's drawing (a frame or two boxes are not).
const MIN_GRAPHIC_CELLS = 6;
// A one-column grid of ruled rows is a table's when this share of its rows hold text.
const MIN_TEXT_ROW_SHARE = 0.6;
// A frame (a one-cell grid) at least this large on both sides (points), whose lines of text cover
// less than this share of it, is a plot's box or a picture's frame (see RuledTables.frames).
const MIN_FRAME_SIDE = 36;
const MAX_FRAME_TEXT_SHARE = 0.2;
// Cells of running text in a frame (a boxed note) are longer than this, as a median.
const MAX_MEDIAN_CELL_CHARS = 200;
// A fragment is cut at a cell wall only where one of its spaces falls this close to the wall (in
// font sizes, characters placed in proportion to their count): a cell's padding, not a word inside.
const MAX_CUT_SHIFT = 0.6;
// A column's text rows line up when this share of them share a left edge, a right edge or a centre
// within ALIGN_EM font sizes (at least ALIGN_MIN points); columns of fewer rows are not judged.
const ALIGNED_SHARE = 0.5;
const ALIGN_EM = 0.3;
const ALIGN_MIN = 2;
const MIN_JUDGED_ROWS = 3;

/** What {@link findRuledTables} finds. */
export interface RuledTables {
  tables: TextBlock[];
  /** The lines outside the tables. */
  rest: TextLine[];
  /** Grids of many cells, nearly all empty: a chart's gridlines or bars, where aligned labels are no table either. */
  graphics: Box[];
  /** The page's horizontal rulings outside the tables found. */
  horizontal: Ruling[];
  /** Large frames holding little text: a plot's box, around which its axis labels stand. */
  frames: Box[];
}

/** Finds ruled tables among the lines; returns them and the lines left outside them. */
export function findRuledTables(lines: readonly TextLine[], rulings: readonly Box[]): RuledTables {
  const { horizontal, vertical } = mergeRulings(rulings);
  const grids = findRuledGrids(horizontal, vertical).sort((a, b) => area(b.box) - area(a.box));
  const tables: TextBlock[] = [];
  const graphics: Box[] = [];
  const frames: Box[] = [];
  const used = new Set<TextLine>();
  const leftOver: TextLine[] = [];
  for (const grid of grids) {
    // A chart's smaller grids (the boxes of its bars, its legend) are no table either.
    if (graphics.some((g) => contains(g, grid.box))) continue;
    const whole = lines.filter((l) => !used.has(l) && contains(grid.box, l));
    const crossing = lines.flatMap((l) => (used.has(l) || whole.includes(l) ? [] : crossingParts(l, grid.box)));
    const inside = [...whole, ...crossing.map((c) => c.inside)];
    const read = inside.length >= 2 ? readGrid(grid, inside) : undefined;
    if (!read || read === 'chart') {
      if (read === 'chart' || (grid.cells.length >= MIN_GRAPHIC_CELLS && !isRuledRowsOnly(grid, inside))) graphics.push(grid.box);
      else if (grid.cells.length === 1 && isEmptyFrame(grid.box, inside)) frames.push(grid.box);
      continue;
    }
    tables.push(read.table);
    for (const l of whole) used.add(l);
    for (const c of crossing) {
      used.add(c.line);
      leftOver.push(...c.outside);
    }
    leftOver.push(...linesOutsideCells(inside, read.outside));
  }
  const free = horizontal.filter((r) => !tables.some((t) => r.pos >= t.box.y0 - 2 && r.pos <= t.box.y1 + 2 && r.from < t.box.x1 && r.to > t.box.x0));
  const rest = used.size > 0 ? [...lines.filter((l) => !used.has(l)), ...leftOver] : [...lines];
  return { tables, rest, graphics, horizontal: free, frames };
}

/**
 * A line running into a grid from outside (OCR reads a column's line and the table row beside it
 * as one line): its fragments inside the box and those outside it, as lines of their own; none when
 * no fragment lies inside or one lies across the box's edge.
 */
function crossingParts(l: TextLine, box: Box): { line: TextLine; inside: TextLine; outside: TextLine[] }[] {
  const cy = (l.top + l.bottom) / 2;
  if (cy <= box.y0 || cy >= box.y1 || l.x1 <= box.x0 || l.x0 >= box.x1) return [];
  const inFrags = l.fragments.filter((f) => f.x0 >= box.x0 && f.x1 <= box.x1);
  if (inFrags.length === 0 || l.fragments.some((f) => !inFrags.includes(f) && f.x1 > box.x0 && f.x0 < box.x1)) return [];
  const inside = buildLines(inFrags);
  if (inside.length !== 1) return [];
  return [{ line: l, inside: inside[0]!, outside: buildLines(l.fragments.filter((f) => !inFrags.includes(f))) }];
}

/** The text of `inside` that no cell took (`outside`, whole fragments or their pieces), as lines of their own. */
function linesOutsideCells(inside: readonly TextLine[], outside: ReadonlyMap<TextFragment, TextFragment>): TextLine[] {
  if (outside.size === 0) return [];
  const out: TextLine[] = [];
  for (const l of inside) {
    const mine = new Set(l.fragments);
    const left = [...outside].filter(([, from]) => mine.has(from)).map(([piece]) => piece);
    if (left.length > 0) out.push(...buildLines(left));
  }
  return out;
}

/**
 * Whether a grid is one column of ruled rows most of which hold text: a table ruled between its rows
 * and framed at its sides, whose columns only the text's alignment gives (the horizontally ruled
 * reading of `open-tables.ts`), not a chart's gridlines.
 */
function isRuledRowsOnly(grid: RuledGrid, inside: readonly TextLine[]): boolean {
  if (grid.xs.length !== 2) return false;
  const rows = grid.ys.length - 1;
  const filled = new Set(inside.map((l) => slot(grid.ys, (l.top + l.bottom) / 2)));
  return filled.size >= MIN_TEXT_ROW_SHARE * rows;
}

/** Whether a frame is large and its lines cover little of it ({@link MAX_FRAME_TEXT_SHARE}). */
function isEmptyFrame(box: Box, inside: readonly TextLine[]): boolean {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  if (w < MIN_FRAME_SIDE || h < MIN_FRAME_SIDE) return false;
  const text = inside.reduce((a, l) => a + (l.x1 - l.x0) * (l.bottom - l.top), 0);
  return text < MAX_FRAME_TEXT_SHARE * w * h;
}

const area = (b: Box): number => (b.x1 - b.x0) * (b.y1 - b.y0);

function contains(box: Box, l: { x0: number; x1: number } & ({ top: number; bottom: number } | { y0: number; y1: number })): boolean {
  const cx = (l.x0 + l.x1) / 2;
  const cy = 'top' in l ? (l.top + l.bottom) / 2 : (l.y0 + l.y1) / 2;
  return cx > box.x0 && cx < box.x1 && cy > box.y0 && cy < box.y1;
}

/** Index of the interval of `bounds` holding `v` (clamped to the first and last). */
function slot(bounds: readonly number[], v: number): number {
  let i = 0;
  while (i < bounds.length - 2 && v >= bounds[i + 1]!) i++;
  return i;
}

interface Placed {
  frag: TextFragment;
  row: number;
  col: number;
}

/** A table's cell, with its grid position, before text rows are split out. */
interface WorkCell extends GridCell {
  frags: TextFragment[];
}

/**
 * Builds the table of one grid, or undefined when the grid does not hold a table. Fragments running
 * across cell walls are cut only in a grid that is a table without cutting: cutting the lines of a
 * framed paragraph would make cells of its words.
 */
export function tableFromGrid(grid: RuledGrid, lines: readonly TextLine[]): TextBlock | undefined {
  const read = readGrid(grid, lines);
  return read === 'chart' ? undefined : read?.table;
}

/**
 * A grid read as a table: the table, and the text of its lines that fell in no cell (fragments, or
 * pieces of them cut at the walls, each with the fragment of its line it came from).
 */
interface GridReading {
  table: TextBlock;
  outside: Map<TextFragment, TextFragment>;
}

/** {@link tableFromGrid}, telling a chart's grid (text that does not line up) apart. */
function readGrid(grid: RuledGrid, lines: readonly TextLine[]): GridReading | 'chart' | undefined {
  const whole = buildTable(grid, lines, false);
  if (whole === 'chart' || !whole) return whole;
  const cut = buildTable(grid, lines, true);
  return cut && cut !== 'chart' ? cut : whole;
}

function buildTable(grid: RuledGrid, lines: readonly TextLine[], cut: boolean): GridReading | 'chart' | undefined {
  const placed: Placed[] = [];
  const walls = cellWalls(grid);
  const origin = new Map<TextFragment, TextFragment>();
  for (const l of lines) {
    for (const g of l.fragments) {
      const row = slot(grid.ys, (g.top + g.bottom) / 2);
      for (const f of cut ? cutAtColumns(g, walls[row]!) : [g]) {
        if (!f.text.trim()) continue;
        placed.push({ frag: f, row, col: slot(grid.xs, (f.x0 + f.x1) / 2) });
        origin.set(f, g);
      }
    }
  }
  const rows = grid.ys.length - 1;
  const cols = grid.xs.length - 1;
  const rowHas = new Array<boolean>(rows).fill(false);
  const colHas = new Array<boolean>(cols).fill(false);
  const gridCells = unmergeColumns(grid, placed);
  const at = new Map<string, GridCell>();
  for (const c of gridCells) for (let r = c.row; r < c.row + c.rowspan; r++) for (let k = c.col; k < c.col + c.colspan; k++) at.set(`${r},${k}`, c);
  // A column holds text when a piece sits in it; a spanning cell's text running past both of its
  // walls does not (the gap between the two lines of a double rule under a spanning header).
  for (const p of placed) {
    rowHas[p.row] = true;
    if (p.frag.x0 > grid.xs[p.col]! - 1 || p.frag.x1 < grid.xs[p.col + 1]! + 1) colHas[p.col] = true;
  }
  for (const p of placed) {
    const c = at.get(`${p.row},${p.col}`);
    if (c && !colHas.slice(c.col, c.col + c.colspan).some(Boolean)) colHas[p.col] = true;
  }
  // Renumber kept rows and columns; a cell spans the kept positions of its range.
  const rowMap = renumber(rowHas);
  const colMap = renumber(colHas);
  const keptRows = rowHas.filter(Boolean).length;
  const keptCols = colHas.filter(Boolean).length;
  if (keptCols < 2 || keptRows < 1) return undefined;
  const owner = new Map<string, WorkCell>();
  const cells: WorkCell[] = [];
  for (const c of gridCells) {
    const r0 = firstKept(rowMap, c.row, c.rowspan);
    const c0 = firstKept(colMap, c.col, c.colspan);
    if (r0 === undefined || c0 === undefined) continue;
    const cell: WorkCell = {
      row: rowMap[r0]!,
      col: colMap[c0]!,
      rowspan: countKept(rowHas, c.row, c.rowspan),
      colspan: countKept(colHas, c.col, c.colspan),
      frags: [],
    };
    cells.push(cell);
    for (let r = c.row; r < c.row + c.rowspan; r++) for (let k = c.col; k < c.col + c.colspan; k++) owner.set(`${r},${k}`, cell);
  }
  const outside = new Map<TextFragment, TextFragment>();
  for (const p of placed) {
    const cell = owner.get(`${p.row},${p.col}`);
    if (cell) cell.frags.push(p.frag);
    else outside.set(p.frag, origin.get(p.frag)!);
  }
  if (!columnsLineUp(cells)) return 'chart';
  const table = splitTextRows(cells, joinWrappedRows(cells, collapseUnstarted(cells, keptRows, keptCols)));
  const filled = table.flat().filter((c) => c.text).length;
  const total = table.flat().length;
  if (total < 2 || filled < 2 || filled < MIN_FILLED_SHARE * total) return undefined;
  if (table.length < 2 && table[0]!.length < 3) return undefined;
  // Text lines running across the column lines: a framed block of text, not a table.
  const wide = table.flat().filter((c) => c.text && c.colspan === keptColsAfter(table)).length;
  if (wide * 2 >= filled) return undefined;
  const lengths = table
    .flat()
    .filter((c) => c.text)
    .map((c) => c.text.length)
    .sort((a, b) => a - b);
  if (lengths[Math.floor(lengths.length / 2)]! > MAX_MEDIAN_CELL_CHARS) return undefined;
  let top = Infinity;
  let bottom = -Infinity;
  let x0 = Infinity;
  let x1 = -Infinity;
  const sizes: number[] = [];
  for (const l of lines) {
    x0 = Math.min(x0, l.x0);
    x1 = Math.max(x1, l.x1);
    top = Math.min(top, l.top);
    bottom = Math.max(bottom, l.bottom);
    sizes.push(l.size);
  }
  sizes.sort((a, b) => a - b);
  const grid2: TableCells = { rows: table };
  const block: TextBlock = {
    kind: 'table',
    text: table.flatMap((r) => r.map((c) => c.text).filter(Boolean)).join(' '),
    box: { x0: Math.min(x0, grid.box.x0), y0: Math.min(top, grid.box.y0), x1: Math.max(x1, grid.box.x1), y1: Math.max(bottom, grid.box.y1) },
    lineCount: table.length,
    size: sizes[Math.floor(sizes.length / 2)] ?? 0,
    font: tableFont(lines),
    table: grid2,
  };
  return { table: block, outside };
}

/**
 * Whether the text of the grid lines up as a table's does: a bar chart's rectangles make a grid
 * too, but its value labels sit at each bar's end or the middle of each segment, so the text rows
 * of one column (or of one spanning cell) share no edge. Judged on the columns (cells of one column)
 * and the spanning cells of {@link MIN_JUDGED_ROWS} text rows or more; the grid fails when as many
 * of them are ragged as line up.
 */
function columnsLineUp(cells: readonly WorkCell[]): boolean {
  type Item = { x0: number; x1: number; size: number };
  const units = new Map<number | WorkCell, Item[]>();
  for (const c of cells) {
    const key = c.colspan === 1 ? c.col : c;
    const items = units.get(key) ?? [];
    for (const row of textRows(c.frags)) items.push({ x0: row[0]!.x0, x1: Math.max(...row.map((f) => f.x1)), size: row[0]!.size });
    units.set(key, items);
  }
  let aligned = 0;
  let ragged = 0;
  for (const items of units.values()) {
    if (items.length < MIN_JUDGED_ROWS) continue;
    const tol = Math.max(ALIGN_MIN, ALIGN_EM * median(items.map((i) => i.size)));
    const best = Math.max(
      largestCluster(
        items.map((i) => i.x0),
        tol,
      ),
      largestCluster(
        items.map((i) => i.x1),
        tol,
      ),
      largestCluster(
        items.map((i) => (i.x0 + i.x1) / 2),
        tol,
      ),
    );
    if (best >= ALIGNED_SHARE * items.length) aligned++;
    else ragged++;
  }
  return aligned > ragged || ragged === 0;
}

/** The most values within one window of width `tol`. */
function largestCluster(values: readonly number[], tol: number): number {
  const s = [...values].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < s.length; j++) {
    while (s[j]! - s[i]! > tol) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** For each grid row, the x of the lines between its cells (a spanning cell has none inside it). */
function cellWalls(grid: RuledGrid): number[][] {
  const walls = Array.from({ length: grid.ys.length - 1 }, () => [] as number[]);
  for (const c of grid.cells) {
    if (c.col === 0) continue;
    for (let r = c.row; r < c.row + c.rowspan; r++) walls[r]!.push(grid.xs[c.col]!);
  }
  return walls;
}

/**
 * A fragment cut at the cell walls it runs across, at a space next to the wall (see
 * {@link MAX_CUT_SHIFT}): the engines join words a cell's padding apart into one fragment, so a
 * fragment can cover several cells. Each piece lies between the walls it was cut at.
 */
function cutAtColumns(f: TextFragment, walls: readonly number[]): TextFragment[] {
  const inner = walls.filter((x) => x > f.x0 + 1 && x < f.x1 - 1);
  if (inner.length === 0 || !f.text.includes(' ')) return [f];
  const n = f.text.length;
  const xAt = (i: number): number => f.x0 + ((f.x1 - f.x0) * i) / n;
  const cuts = new Map<number, number>();
  for (const x of inner) {
    let best = -1;
    for (let i = 0; i < n; i++) if (f.text[i] === ' ' && (best < 0 || Math.abs(xAt(i + 0.5) - x) < Math.abs(xAt(best + 0.5) - x))) best = i;
    if (best >= 0 && Math.abs(xAt(best + 0.5) - x) <= MAX_CUT_SHIFT * f.size && !cuts.has(best)) cuts.set(best, x);
  }
  if (cuts.size === 0) return [f];
  const out: TextFragment[] = [];
  let start = 0;
  let left = f.x0;
  for (const [at, x] of [...[...cuts].sort((a, b) => a[0] - b[0]), [n, f.x1] as [number, number]]) {
    const text = f.text.slice(start, at).trim();
    if (text) out.push({ ...f, text, x0: left, x1: at === n ? f.x1 : Math.max(left, x - 0.5) });
    start = at + 1;
    left = Math.min(f.x1, x + 0.5);
  }
  return out;
}

/**
 * The grid's cells, with a cell spanning columns split into one cell per column where its text
 * sits in several of those columns and no piece of it crosses a column line: a table ruled between
 * rows but not between columns, rather than a spanning cell, whose text would be one centred piece.
 */
function unmergeColumns(grid: RuledGrid, placed: readonly Placed[]): GridCell[] {
  const out: GridCell[] = [];
  for (const c of grid.cells) {
    if (c.colspan < 2) {
      out.push(c);
      continue;
    }
    const mine = placed.filter((p) => p.row >= c.row && p.row < c.row + c.rowspan && p.col >= c.col && p.col < c.col + c.colspan);
    const cols = new Set(mine.map((p) => p.col));
    const crosses = mine.some((p) => p.frag.x0 < grid.xs[p.col]! - 1 || p.frag.x1 > grid.xs[p.col + 1]! + 1);
    if (cols.size < 2 || crosses) {
      out.push(c);
      continue;
    }
    for (let k = c.col; k < c.col + c.colspan; k++) out.push({ row: c.row, col: k, rowspan: c.rowspan, colspan: 1 });
  }
  return out;
}

/**
 * Merges grid rows (and columns) where no cell starts: every cell crossing into them spans them, so
 * the line between is a short rule elsewhere on the page or a rule that stops at the table's edge.
 * Returns the row count after merging; cells are renumbered in place.
 */
function collapseUnstarted(cells: WorkCell[], rows: number, cols: number): number {
  const collapse = (n: number, start: (c: WorkCell) => number): number[] => {
    const starts = new Array<boolean>(n).fill(false);
    for (const c of cells) starts[start(c)] = true;
    const map: number[] = [];
    let k = -1;
    for (let i = 0; i < n; i++) map.push(starts[i] || k < 0 ? ++k : k);
    return map;
  };
  const rowMap = collapse(rows, (c) => c.row);
  const colMap = collapse(cols, (c) => c.col);
  for (const c of cells) {
    const r1 = rowMap[c.row + c.rowspan - 1]!;
    const c1 = colMap[c.col + c.colspan - 1]!;
    c.row = rowMap[c.row]!;
    c.col = colMap[c.col]!;
    c.rowspan = r1 - c.row + 1;
    c.colspan = c1 - c.col + 1;
  }
  return rows === 0 ? 0 : rowMap[rows - 1]! + 1;
}

/**
 * Joins a grid row into the row above where only one cell starts in it, under a cell of the same
 * columns, every other cell spans both rows, and its text goes on in lower case: a wrapped label
 * whose lines sit in boxes of their own (a highlight or inset box drawn per line), not a row of the
 * table. Returns the row count after joining; cells are renumbered in place.
 */
function joinWrappedRows(cells: WorkCell[], rows: number): number {
  let n = rows;
  for (let r = n - 1; r >= 1; r--) {
    const starting = cells.filter((c) => c.row === r);
    if (starting.length !== 1) continue;
    const below = starting[0]!;
    const above = cells.find((c) => c.row + c.rowspan === r && c.col === below.col && c.colspan === below.colspan);
    const text = cellText(below.frags);
    if (!above || !/^\p{Ll}/u.test(text) || !cellText(above.frags)) continue;
    above.frags.push(...below.frags);
    above.rowspan += below.rowspan;
    cells.splice(cells.indexOf(below), 1);
    // The joined row is gone: cells across it span one row less, cells below move up.
    for (const c of cells) {
      if (c === above) above.rowspan--;
      else if (c.row <= r && c.row + c.rowspan > r) c.rowspan--;
      else if (c.row > r) c.row--;
    }
    n--;
  }
  return n;
}

/** The column count of a table's rows of cells. */
function keptColsAfter(table: readonly TableCell[][]): number {
  return Math.max(...table.map((r) => r.reduce((n, c) => n + c.colspan, 0)));
}

function renumber(has: readonly boolean[]): number[] {
  const map: number[] = [];
  let n = 0;
  for (const h of has) map.push(h ? n++ : -1);
  return map;
}

function firstKept(map: readonly number[], start: number, span: number): number | undefined {
  for (let i = start; i < start + span; i++) if (map[i]! >= 0) return i;
  return undefined;
}

function countKept(has: readonly boolean[], start: number, span: number): number {
  let n = 0;
  for (let i = start; i < start + span; i++) if (has[i]) n++;
  return n;
}

/** Fragments in reading order, grouped into text rows by vertical overlap. */
function textRows(frags: readonly TextFragment[]): TextFragment[][] {
  const sorted = [...frags].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const rows: { frags: TextFragment[]; bottom: number }[] = [];
  for (const f of sorted) {
    const last = rows[rows.length - 1];
    const h = f.bottom - f.top;
    if (last && f.top < last.bottom - 0.4 * h) {
      last.frags.push(f);
      last.bottom = Math.max(last.bottom, f.bottom);
    } else rows.push({ frags: [f], bottom: f.bottom });
  }
  return rows.map((r) => r.frags.sort((a, b) => a.x0 - b.x0));
}

/** A cell's text: its text rows joined, fragments within a row spaced by their gaps. */
function cellText(frags: readonly TextFragment[]): string {
  return joinLineTexts(
    textRows(frags).map((row) => {
      let s = '';
      let prev: TextFragment | undefined;
      for (const f of row) {
        const t = f.text.trim();
        s = prev ? (f.x0 - prev.x1 > 0.15 * f.size ? `${s} ${t}` : s + t) : t;
        prev = f;
      }
      return s;
    }),
  );
}

/**
 * The table's rows of cells. A grid row whose cells all span that row alone, holding several rows
 * of text of which two or more fill two cells or more, is cut at its text rows; a text row with
 * nothing in the first column, or starting there in lower case, continues the row above (a wrapped
 * cell).
 */
function splitTextRows(cells: readonly WorkCell[], rows: number): TableCell[][] {
  const out: TableCell[][] = [];
  for (let r = 0; r < rows; r++) {
    const starting = cells.filter((c) => c.row === r).sort((a, b) => a.col - b.col);
    const crossing = cells.filter((c) => c.row <= r && c.row + c.rowspan > r);
    const sub = crossing.every((c) => c.rowspan === 1) ? bandRows(starting) : undefined;
    if (!sub) {
      out.push(starting.map((c) => ({ text: cellText(c.frags), colspan: c.colspan, rowspan: c.rowspan })));
      continue;
    }
    for (const group of sub) {
      out.push(starting.map((c) => ({ text: cellText(c.frags.filter((f) => group.has(f))), colspan: c.colspan, rowspan: 1 })));
    }
  }
  return out;
}

/** The text rows of one band as sets of fragments, or undefined when the band is one row. */
function bandRows(cells: readonly WorkCell[]): Set<TextFragment>[] | undefined {
  const cellOf = new Map<TextFragment, WorkCell>();
  for (const c of cells) for (const f of c.frags) cellOf.set(f, c);
  const rows = textRows([...cellOf.keys()]);
  if (rows.length < 2) return undefined;
  const first = cells[0];
  const groups: { frags: Set<TextFragment>; cells: Set<WorkCell | undefined> }[] = [];
  for (const row of rows) {
    const rowCells = new Set(row.map((f) => cellOf.get(f)));
    const lead = row.find((f) => cellOf.get(f) === first);
    // A row with nothing in the first column, or starting there in lower case, continues the row above.
    const continues = groups.length > 0 && (!lead || /^\p{Ll}/u.test(lead.text.trim()));
    const g = continues ? groups[groups.length - 1]! : undefined;
    if (g) {
      for (const f of row) g.frags.add(f);
      for (const c of rowCells) g.cells.add(c);
    } else groups.push({ frags: new Set(row), cells: rowCells });
  }
  if (groups.filter((g) => g.cells.size >= 2).length < 2) return undefined;
  return groups.map((g) => g.frags);
}
