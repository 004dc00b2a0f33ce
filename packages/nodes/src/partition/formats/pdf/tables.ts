/**
 * Table detection from text geometry (hi_res). Lines are already split at wide gaps, so a table
 * row shows up as several lines sharing a baseline. A run of such rows whose pieces fall into
 * consistent column bands, with short cell texts (prose columns have long lines), is a table; its
 * lines leave the paragraph flow and become one table block with a cell grid.
 */
import type { Box, TableCells, TextBlock, TextLine } from './layout-types.js';
import { findOpenTables } from './open-tables.js';
import { findRuledTables } from './ruled-tables.js';
import { slantedStrokes } from './rulings.js';
import { tableFont } from './text-blocks.js';
import type { TableFinder } from './text-layout.js';

interface Row {
  lines: TextLine[];
  top: number;
  bottom: number;
  size: number;
}

/** Column bands: merged x-ranges of the cells of multi-cell rows. */
interface Band {
  x0: number;
  x1: number;
}

const MAX_MEDIAN_CELL_CHARS = 30;
// A plot (see plotAreas): this many slanted strokes at least, each this close (points) to another.
const MIN_PLOT_STROKES = 8;
const PLOT_GAP = 6;
const MAX_CELL_CHARS = 60;
// Cells are not set this much larger than the text around them: such rows are the titles of
// side-by-side columns.
const MAX_CELL_SIZE_RATIO = 1.5;

/**
 * Finds tables among a page's horizontal lines ({@link TableFinder}). A page split into side-by-side
 * panels (empty vertical strips from top to bottom) is searched panel by panel when a panel has
 * rows of several pieces itself, so two panels' rows are not taken for one wide table; a page
 * that is one table (whose columns alone are such strips) is searched whole.
 */
export const findTables: TableFinder = (allLines, rulings = []) => {
  const ruled = rulings.length > 0 ? findRuledTables(allLines, rulings) : undefined;
  if (!ruled) return findStreamTables(allLines);
  // Aligned labels inside a chart's drawing, or beside the slanted lines of its plot (its axes'
  // ticks and legend), are no table: their lines stay text.
  const plots = plotAreas(slantedStrokes(rulings));
  const nearPlot = (t: TextBlock): boolean => plots.some((p) => touches(t.box, p, t.size));
  const gridded = withoutCharts(allLines, ruled, nearPlot);
  // A chart's gridlines, once known, hold no open table either.
  const graphics = [...ruled.graphics, ...ruled.tables.filter((t) => !gridded.tables.includes(t)).map((t) => t.box)];
  ruled.tables = gridded.tables;
  ruled.rest = gridded.rest;
  // A row of an open or stream table inside a chart's drawing: the chart's labels (its axis, the
  // values on its bars).
  // Labels standing around a nearly empty frame on two sides or more: a plot's axes.
  const inChart = (t: TextBlock): boolean => {
    const mine = ruled.rest.filter((l) => inside(lineBox(l), t.box));
    return mine.some((l) => graphics.some((g) => inside(lineBox(l), g))) || ruled.frames.some((f) => framedSides(mine, f, t.size) >= 2);
  };
  const open = withoutCharts(ruled.rest, findOpenTables(ruled.rest, ruled.horizontal, graphics), (t) => inChart(t) || nearPlot(t));
  ruled.tables.push(...open.tables);
  const stream = withoutCharts(open.rest, findStreamTables(open.rest), (t) => inChart(t) || nearPlot(t));
  return { tables: [...ruled.tables, ...stream.tables], rest: stream.rest };
};

/** `found` without the tables `isChart` tells, whose lines (among `lines`) go back to the rest. */
function withoutCharts(
  lines: readonly TextLine[],
  found: { tables: TextBlock[]; rest: TextLine[] },
  isChart: (t: TextBlock) => boolean,
): { tables: TextBlock[]; rest: TextLine[] } {
  const charts = found.tables.filter(isChart);
  if (charts.length === 0) return found;
  const rest = new Set(found.rest);
  const released = lines.filter((l) => !rest.has(l) && charts.some((t) => inside(lineBox(l), t.box)));
  return { tables: found.tables.filter((t) => !charts.includes(t)), rest: [...found.rest, ...released] };
}

const lineBox = (l: TextLine): Box => ({ x0: l.x0, y0: l.top, x1: l.x1, y1: l.bottom });

/** On how many sides of `frame` some of `lines` stand outside it, within `margin` of it. */
function framedSides(lines: readonly TextLine[], frame: Box, margin: number): number {
  const sides = new Set<string>();
  for (const l of lines) {
    if (!touches(lineBox(l), frame, margin) || inside(lineBox(l), frame)) continue;
    const alongY = l.bottom > frame.y0 && l.top < frame.y1;
    const alongX = l.x1 > frame.x0 && l.x0 < frame.x1;
    if (alongY && l.x1 <= frame.x0 + 1) sides.add('left');
    else if (alongY && l.x0 >= frame.x1 - 1) sides.add('right');
    else if (alongX && l.top >= frame.y1 - 1) sides.add('below');
    else if (alongX && l.bottom <= frame.y0 + 1) sides.add('above');
  }
  return sides.size;
}

/** Whether `a`, grown by `margin` on every side, overlaps `b`. */
function touches(a: Box, b: Box, margin: number): boolean {
  return a.x0 - margin < b.x1 && a.x1 + margin > b.x0 && a.y0 - margin < b.y1 && a.y1 + margin > b.y0;
}

/**
 * Boxes of the plots on a page: groups of at least {@link MIN_PLOT_STROKES} slanted strokes, each
 * within {@link PLOT_GAP} of another of its group (a line chart's lines, a map's borders).
 */
function plotAreas(strokes: readonly Box[]): Box[] {
  const groups: { box: Box; n: number }[] = [];
  for (const s of strokes) {
    let into = groups.find((g) => touches(g.box, s, PLOT_GAP));
    if (!into) groups.push((into = { box: { ...s }, n: 0 }));
    into.n++;
    into.box = union(into.box, s);
    // The grown group may now reach others: absorb them.
    for (let i = groups.length - 1; i >= 0; i--) {
      const g = groups[i]!;
      if (g !== into && touches(g.box, into.box, PLOT_GAP)) {
        into.box = union(into.box, g.box);
        into.n += g.n;
        groups.splice(i, 1);
      }
    }
  }
  return groups.filter((g) => g.n >= MIN_PLOT_STROKES).map((g) => g.box);
}

const union = (a: Box, b: Box): Box => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) });

/** Whether the centre of `a` lies inside `b`. */
function inside(a: Box, b: Box): boolean {
  const cx = (a.x0 + a.x1) / 2;
  const cy = (a.y0 + a.y1) / 2;
  return cx >= b.x0 && cx <= b.x1 && cy >= b.y0 && cy <= b.y1;
}

/** Tables from the alignment of text alone (the stream reading). */
function findStreamTables(lines: TextLine[]): { tables: TextBlock[]; rest: TextLine[] } {
  const panels = splitPanels(lines);
  const textSize = median(lines.map((l) => l.size));
  if (panels.length > 1 && panels.some((p) => groupRows(p).some((r) => r.lines.length >= 2))) {
    const found = panels.map((p) => findTablesIn(p, textSize));
    return { tables: found.flatMap((f) => f.tables), rest: found.flatMap((f) => f.rest) };
  }
  return findTablesIn(lines, textSize);
}

/**
 * Groups lines into side-by-side panels separated by empty vertical strips of at least one em. A
 * line alone at the top or the bottom of the page (a running header or footer) may cross a strip:
 * it joins the panel it overlaps most.
 */
function splitPanels(lines: readonly TextLine[]): TextLine[][] {
  if (lines.length === 0) return [];
  const em = median(lines.map((l) => l.size));
  const rows = groupRows(lines);
  const furniture = new Set([rows[0]!, rows[rows.length - 1]!].filter((r) => r.lines.length === 1 && rows.length > 2).map((r) => r.lines[0]!));
  const sorted = lines.filter((l) => !furniture.has(l)).sort((a, b) => a.x0 - b.x0);
  const panels: TextLine[][] = [];
  let current: TextLine[] = [];
  let reach = -Infinity;
  for (const l of sorted) {
    if (current.length > 0 && l.x0 > reach + em) {
      panels.push(current);
      current = [];
    }
    current.push(l);
    reach = Math.max(reach, l.x1);
  }
  panels.push(current);
  for (const l of furniture) {
    const overlap = (p: TextLine[]): number => Math.min(l.x1, Math.max(...p.map((q) => q.x1))) - Math.max(l.x0, Math.min(...p.map((q) => q.x0)));
    panels.reduce((best, p) => (overlap(p) > overlap(best) ? p : best)).push(l);
  }
  return panels;
}

function findTablesIn(lines: readonly TextLine[], textSize = Infinity): { tables: TextBlock[]; rest: TextLine[] } {
  const rows = groupRows(lines);
  const tables: TextBlock[] = [];
  const used = new Set<TextLine>();
  let i = 0;
  while (i < rows.length) {
    const run = growRun(rows, i);
    const table = run ? tableFromRows(run) : undefined;
    if (run && table && table.size <= MAX_CELL_SIZE_RATIO * textSize) {
      tables.push(table);
      for (const r of run) for (const l of r.lines) used.add(l);
      i += run.length;
    } else i++;
  }
  return { tables, rest: tables.length > 0 ? lines.filter((l) => !used.has(l)) : [...lines] };
}

/** Lines whose vertical extents overlap by half form a row (in top-to-bottom order). */
function groupRows(lines: readonly TextLine[]): Row[] {
  const sorted = [...lines].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const rows: Row[] = [];
  for (const line of sorted) {
    const row = rows[rows.length - 1];
    const h = line.bottom - line.top;
    if (row && Math.min(row.bottom, line.bottom) - Math.max(row.top, line.top) >= 0.5 * Math.min(h, row.bottom - row.top)) {
      row.lines.push(line);
      row.bottom = Math.max(row.bottom, line.bottom);
      row.size = Math.max(row.size, line.size);
    } else rows.push({ lines: [line], top: line.top, bottom: line.bottom, size: line.size });
  }
  for (const r of rows) r.lines.sort((a, b) => a.x0 - b.x0);
  return rows;
}

const isShort = (l: TextLine): boolean => l.text.length <= MAX_CELL_CHARS;

/** The longest run of rows from `start` that could be one table, or undefined. */
function growRun(rows: readonly Row[], start: number): Row[] | undefined {
  const first = rows[start]!;
  if (first.lines.length < 2 || !first.lines.every(isShort)) return undefined;
  const run: Row[] = [first];
  let bands = mergeBands([], first.lines);
  for (let j = start + 1; j < rows.length; j++) {
    const row = rows[j]!;
    const prev = run[run.length - 1]!;
    // Rows of one table are close: at most about two blank lines apart.
    if (row.top - prev.bottom > 2.5 * Math.max(row.size, prev.size)) break;
    if (!row.lines.every(isShort)) break;
    if (row.lines.length >= 2) {
      const next = mergeBands(bands, row.lines);
      // Two cells of a row in one band: the columns do not line up.
      if (!cellsInDistinctBands(row.lines, next)) break;
      bands = next;
    } else if (!bands.some((b) => overlaps(b, row.lines[0]!))) break;
    run.push(row);
  }
  // Trailing single-cell rows are more likely the text after the table.
  while (run.length > 0 && run[run.length - 1]!.lines.length < 2) run.pop();
  return run;
}

function overlaps(b: Band, l: { x0: number; x1: number }): boolean {
  return Math.min(b.x1, l.x1) - Math.max(b.x0, l.x0) > 0;
}

/** Adds cells' x-ranges to the bands, merging overlapping ones. */
function mergeBands(bands: readonly Band[], cells: readonly TextLine[]): Band[] {
  const all = [...bands, ...cells.map((c) => ({ x0: c.x0, x1: c.x1 }))].sort((a, b) => a.x0 - b.x0);
  const out: Band[] = [];
  for (const b of all) {
    const last = out[out.length - 1];
    if (last && b.x0 <= last.x1) last.x1 = Math.max(last.x1, b.x1);
    else out.push({ ...b });
  }
  return out;
}

function bandIndex(bands: readonly Band[], l: TextLine): number {
  return bands.findIndex((b) => overlaps(b, l));
}

function cellsInDistinctBands(cells: readonly TextLine[], bands: readonly Band[]): boolean {
  const seen = new Set<number>();
  for (const c of cells) {
    const i = bandIndex(bands, c);
    if (i < 0 || seen.has(i)) return false;
    seen.add(i);
  }
  return true;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!;
}

/**
 * Counts bands that read like columns of running text: most of their pieces are several words
 * long, or most pieces continue the piece above (a long piece followed by one starting in lower
 * case, or a piece ending with a hyphen). Side-by-side text columns pass the alignment tests of a table; this tells them
 * apart.
 */
function proseBandCount(run: readonly Row[], bands: readonly Band[]): number {
  let prose = 0;
  for (const band of bands) {
    const cells = run.flatMap((r) => r.lines.filter((l) => overlaps(band, l)));
    if (cells.length < 2) continue;
    const wordy = cells.filter((c) => c.text.split(/\s+/).length >= 4 && c.text.length >= 20).length;
    let continued = 0;
    for (let k = 1; k < cells.length; k++) {
      const above = cells[k - 1]!.text;
      if ((above.length >= 20 && /^\p{Ll}/u.test(cells[k]!.text)) || /\p{L}-$/u.test(above)) continued++;
    }
    if (wordy >= 0.6 * cells.length || continued >= 0.4 * (cells.length - 1)) prose++;
  }
  return prose;
}

/**
 * How a stream table's text row goes on with the row above, if it does: `around` when the row above
 * is a label's first line alone and this row holds its values with nothing in the first column (a
 * label wrapped around its row's baseline); `wrap` for a first-column line alone that starts in
 * lower case, or that ends such a label (`afterAround`).
 */
function continuesRow(prev: readonly string[], row: readonly string[], afterAround: boolean): 'around' | 'wrap' | undefined {
  const onlyFirst = (r: readonly string[]): boolean => r[0] !== '' && r.slice(1).every((t) => t === '');
  if (onlyFirst(prev) && row[0] === '' && row.some(Boolean)) return 'around';
  return onlyFirst(row) && (afterAround || /^\p{Ll}/u.test(row[0]!)) ? 'wrap' : undefined;
}

/** Validates a run of rows and builds its table block, or undefined when it is not a table. */
function tableFromRows(run: readonly Row[]): TextBlock | undefined {
  const multi = run.filter((r) => r.lines.length >= 2);
  const maxCells = Math.max(...multi.map((r) => r.lines.length));
  if (!(multi.length >= 3 || (multi.length >= 2 && maxCells >= 3))) return undefined;
  const cells = run.flatMap((r) => r.lines);
  if (median(cells.map((c) => c.text.length)) > MAX_MEDIAN_CELL_CHARS) return undefined;
  const bands = run.reduce<Band[]>((acc, r) => mergeBands(acc, r.lines), []);
  if (bands.length < 2) return undefined;
  if (proseBandCount(run, bands) * 2 >= bands.length) return undefined;
  const grid: TableCells = { rows: [] };
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  const sizes: number[] = [];
  // The row above was a label's first line joined by its values (see continuesRow).
  let around = false;
  for (const r of run) {
    const row = new Array<string>(bands.length).fill('');
    for (const l of r.lines) {
      const i = Math.max(0, bandIndex(bands, l));
      row[i] = row[i] ? `${row[i]} ${l.text}` : l.text;
      x0 = Math.min(x0, l.x0);
      x1 = Math.max(x1, l.x1);
      top = Math.min(top, l.top);
      bottom = Math.max(bottom, l.bottom);
      sizes.push(l.size);
    }
    const prev = grid.rows[grid.rows.length - 1];
    const joins: 'around' | 'wrap' | undefined = prev
      ? continuesRow(
          prev.map((c) => c.text),
          row,
          around,
        )
      : undefined;
    around = joins === 'around';
    if (prev && joins) {
      row.forEach((t, i) => {
        if (t) prev[i]!.text = prev[i]!.text ? `${prev[i]!.text} ${t}` : t;
      });
    } else grid.rows.push(row.map((t) => ({ text: t, colspan: 1, rowspan: 1 })));
  }
  const text = grid.rows
    .map((r) =>
      r
        .map((c) => c.text)
        .filter(Boolean)
        .join(' '),
    )
    .join(' ');
  return {
    kind: 'table',
    text,
    box: { x0, y0: top, x1, y1: bottom },
    lineCount: run.length,
    size: median(sizes),
    font: tableFont(run.flatMap((r) => r.lines)),
    table: grid,
  };
}
