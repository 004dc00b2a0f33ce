/**
 * Tables ruled with horizontal lines only (a rule above, one under the header, one below: the
 * style of statistical reports). Three or more long rules of about the same extent, stacked close,
 * frame a region; its columns are the vertical strips no body text crosses, its rows the text rows
 * (a row with nothing in the first column, or starting in lower case there, continues the cell
 * text above). Text in the header crossing a column strip spans those columns.
 */
import type { Box, TableCell, TextBlock, TextFragment, TextLine } from './layout-types.js';
import type { Ruling } from './rulings.js';
import { tableFont, joinLineTexts } from './text-blocks.js';

// Rules shorter than this (points) underline a header group, not a table.
const MIN_FRAME_RULE = 120;
// Rules of one table overlap this share of the longer one.
const MIN_RULE_OVERLAP = 0.8;
// Two rules of one table are at most this far apart (points).
const MAX_RULE_GAP = 400;
// A column strip is at least this wide, in font sizes.
const MIN_GAP_EM = 0.6;
// A line of this many lower-case words or more is running text (see frames).
const MIN_PROSE_WORDS = 4;
// A column whose lines nearly all fill its width is running text.
const FULL_LINE_SHARE = 0.85;

/**
 * Finds horizontally ruled tables; returns them and the lines left over. A frame holding a chart's
 * drawing (`graphics`, see `ruled-tables.ts`) is no table.
 */
export function findOpenTables(
  lines: readonly TextLine[],
  horizontal: readonly Ruling[],
  graphics: readonly Box[] = [],
): { tables: TextBlock[]; rest: TextLine[] } {
  const tables: TextBlock[] = [];
  const used = new Set<TextLine>();
  for (const frame of frames(horizontal, lines)) {
    // Rules above the table (a running head's, a title's) may join its frame: every rule is tried
    // as the top, and the reading with the most columns wins.
    let best: { table: TextBlock; inside: TextLine[]; cols: number } | undefined;
    for (let s = 0; s + 2 <= frame.length - 1 || (s === 0 && frame.length >= 2); s++) {
      const rules = frame.slice(s);
      const top = rules[0]!.pos;
      const bottom = rules[rules.length - 1]!.pos;
      const x0 = Math.min(...rules.map((r) => r.from)) - 2;
      const x1 = Math.max(...rules.map((r) => r.to)) + 2;
      const inside = trimCaptions(
        lines.filter((l) => !used.has(l) && (l.top + l.bottom) / 2 > top && (l.top + l.bottom) / 2 < bottom && l.x0 >= x0 && l.x1 <= x1),
        x1 - x0,
      );
      if (inside.length < 4) continue;
      if (graphics.some((g) => (g.x0 + g.x1) / 2 > x0 && (g.x0 + g.x1) / 2 < x1 && (g.y0 + g.y1) / 2 > top && (g.y0 + g.y1) / 2 < bottom)) continue;
      const headerEnd = rules.length >= 3 ? rules[1]!.pos : top;
      const table = tableOf(inside, headerEnd, { x0, y0: top, x1, y1: bottom });
      const cols = table ? Math.max(...table.table!.rows.map((r) => r.reduce((n, c) => n + c.colspan, 0))) : 0;
      if (table && (!best || cols > best.cols)) best = { table, inside, cols };
    }
    if (!best) continue;
    tables.push(best.table);
    for (const l of best.inside) used.add(l);
  }
  return { tables, rest: used.size > 0 ? lines.filter((l) => !used.has(l)) : [...lines] };
}

/**
 * The lines without a caption or title at the top and notes at the bottom: lines wider than half
 * the frame before the first and after the last narrower one.
 */
function trimCaptions(lines: readonly TextLine[], width: number): TextLine[] {
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  const wide = (l: TextLine): boolean => l.x1 - l.x0 > 0.5 * width;
  let a = 0;
  let b = sorted.length;
  while (a < b && wide(sorted[a]!)) a++;
  while (b > a && wide(sorted[b - 1]!)) b--;
  return sorted.slice(a, b);
}

/**
 * Groups of three or more long rules of about the same extent, each close to the next. A group is
 * cut where a line of running text (wider than half the rules, of {@link MIN_PROSE_WORDS} words in
 * lower case or more, alone on its row) stands between two of its rules: the
 * notes under one table and the caption of the next, whose rules would otherwise frame both tables.
 */
function frames(horizontal: readonly Ruling[], lines: readonly TextLine[]): Ruling[][] {
  const long = horizontal.filter((r) => r.to - r.from >= MIN_FRAME_RULE).sort((a, b) => a.pos - b.pos);
  const out: Ruling[][] = [];
  const taken = new Set<Ruling>();
  const proseBetween = (a: Ruling, b: Ruling): boolean =>
    lines.some((l) => {
      const cy = (l.top + l.bottom) / 2;
      if (cy <= a.pos || cy >= b.pos || l.x1 - l.x0 <= 0.5 * Math.max(a.to - a.from, b.to - b.from)) return false;
      // Words, not a row of figures joined across narrow column gaps, and alone on its row: no cell of a table row.
      if ((l.text.match(/\p{Ll}{2,}/gu)?.length ?? 0) < MIN_PROSE_WORDS) return false;
      return !lines.some((o) => o !== l && o.top < l.bottom && o.bottom > l.top && o.x1 > a.from && o.x0 < a.to);
    });
  for (const r of long) {
    if (taken.has(r)) continue;
    const group = [r];
    for (const s of long) {
      if (taken.has(s) || s === r || s.pos <= group[group.length - 1]!.pos) continue;
      if (s.pos - group[group.length - 1]!.pos > MAX_RULE_GAP) break;
      const overlap = Math.min(r.to, s.to) - Math.max(r.from, s.from);
      if (overlap < MIN_RULE_OVERLAP * Math.max(r.to - r.from, s.to - s.from)) continue;
      if (proseBetween(group[group.length - 1]!, s)) break;
      group.push(s);
    }
    if (group.length < 3) continue;
    for (const g of group) taken.add(g);
    out.push(group);
  }
  return out;
}

interface Column {
  x0: number;
  x1: number;
}

/** Text rows: fragments grouped by vertical overlap, top to bottom, each row left to right. */
function textRows(frags: readonly TextFragment[]): TextFragment[][] {
  const sorted = [...frags].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  const rows: { frags: TextFragment[]; bottom: number }[] = [];
  for (const f of sorted) {
    const last = rows[rows.length - 1];
    if (last && f.top < last.bottom - 0.4 * (f.bottom - f.top)) {
      last.frags.push(f);
      last.bottom = Math.max(last.bottom, f.bottom);
    } else rows.push({ frags: [f], bottom: f.bottom });
  }
  return rows.map((r) => r.frags.sort((a, b) => a.x0 - b.x0));
}

/** Columns: the x-ranges between strips that no body fragment crosses. */
function columnsOf(body: readonly TextFragment[], em: number): Column[] {
  const spans = body.map((f) => ({ x0: f.x0, x1: f.x1 })).sort((a, b) => a.x0 - b.x0);
  const cols: Column[] = [];
  for (const s of spans) {
    const last = cols[cols.length - 1];
    if (last && s.x0 < last.x1 + MIN_GAP_EM * em) last.x1 = Math.max(last.x1, s.x1);
    else cols.push({ ...s });
  }
  return cols;
}

/** Index of the columns a fragment overlaps: first and last. */
function colRange(cols: readonly Column[], f: TextFragment): [number, number] {
  let a = -1;
  let b = -1;
  for (let i = 0; i < cols.length; i++) {
    if (Math.min(cols[i]!.x1, f.x1) - Math.max(cols[i]!.x0, f.x0) > 0) {
      if (a < 0) a = i;
      b = i;
    }
  }
  if (a < 0) {
    // In a strip: the nearest column.
    const cx = (f.x0 + f.x1) / 2;
    let best = 0;
    for (let i = 1; i < cols.length; i++) if (Math.abs(cx - (cols[i]!.x0 + cols[i]!.x1) / 2) < Math.abs(cx - (cols[best]!.x0 + cols[best]!.x1) / 2)) best = i;
    return [best, best];
  }
  return [a, b];
}

function joinRow(frags: readonly TextFragment[]): string {
  let s = '';
  let prev: TextFragment | undefined;
  for (const f of frags) {
    const t = f.text.trim();
    s = prev ? (f.x0 - prev.x1 > 0.15 * f.size ? `${s} ${t}` : s + t) : t;
    prev = f;
  }
  return s;
}

interface RowCell {
  col: number;
  colspan: number;
  lines: string[];
}

function tableOf(lines: readonly TextLine[], headerEnd: number, frame: Box): TextBlock | undefined {
  const frags = lines.flatMap((l) => l.fragments.filter((f) => f.text.trim()));
  const sizes = frags.map((f) => f.size).sort((a, b) => a - b);
  const em = sizes[Math.floor(sizes.length / 2)] ?? 10;
  const isHeader = (f: TextFragment): boolean => (f.top + f.bottom) / 2 < headerEnd;
  const body = frags.filter((f) => !isHeader(f));
  if (body.length < 4) return undefined;
  const cols = columnsOf(body, em);
  if (cols.length < 2 || cols.length > 40) return undefined;
  if (isProse(body, cols)) return undefined;
  const rows: RowCell[][] = [];
  let headerRows = 0;
  for (const row of textRows(frags)) {
    const pieces: { col: number; colspan: number; frags: TextFragment[] }[] = [];
    const header = isHeader(row[0]!);
    for (const f of row) {
      const [a, b] = colRange(cols, f);
      const last = pieces[pieces.length - 1];
      if (last && a <= last.col + last.colspan - 1) {
        last.frags.push(f);
        last.colspan = Math.max(last.colspan, b - last.col + 1);
      } else pieces.push({ col: a, colspan: b - a + 1, frags: [f] });
    }
    const cells: RowCell[] = pieces.map((p) => ({ col: p.col, colspan: p.colspan, lines: [joinRow(p.frags)] }));
    const prev = rows[rows.length - 1];
    const lead = cells.find((c) => c.col === 0);
    const prevHeader = rows.length > 0 && rows.length <= headerRows;
    let continues = false;
    if (prev && header === prevHeader) {
      if (header) continues = !cells.some((c) => c.colspan > 1) && !prev.some((c) => c.colspan > 1);
      else continues = !lead || /^\p{Ll}/u.test(lead.lines[0]!);
    }
    if (continues && prev && merge(prev, cells)) continue;
    rows.push(cells);
    if (header) headerRows = rows.length;
  }
  // A header stacked over several lines: the lines above the first row with a first-column label,
  // unless they span columns, belong to the row below.
  const firstLabelled = rows.findIndex((r) => r.some((c) => c.col === 0));
  for (let i = firstLabelled - 1; i >= 0; i--) {
    if (rows[i]!.some((c) => c.colspan > 1) || rows[i + 1]!.some((c) => c.colspan > 1)) break;
    if (!merge(rows[i + 1]!, rows[i]!, true)) break;
    rows.splice(i, 1);
  }
  if (rows.length < 2) return undefined;
  const width = cols.length;
  const table: TableCell[][] = rows.map((cells) => {
    const out: TableCell[] = [];
    let at = 0;
    for (const c of cells.sort((x, y) => x.col - y.col)) {
      while (at < c.col) {
        out.push({ text: '', colspan: 1, rowspan: 1 });
        at++;
      }
      out.push({ text: joinLineTexts(c.lines), colspan: c.colspan, rowspan: 1 });
      at = c.col + c.colspan;
    }
    while (at < width) {
      out.push({ text: '', colspan: 1, rowspan: 1 });
      at++;
    }
    return out;
  });
  let x0 = Infinity;
  let x1 = -Infinity;
  for (const l of lines) {
    x0 = Math.min(x0, l.x0);
    x1 = Math.max(x1, l.x1);
  }
  return {
    kind: 'table',
    text: table.flatMap((r) => r.map((c) => c.text).filter(Boolean)).join(' '),
    box: { x0: Math.max(x0, frame.x0), y0: frame.y0, x1: Math.min(x1, frame.x1), y1: frame.y1 },
    lineCount: table.length,
    size: em,
    font: tableFont(lines),
    table: { rows: table },
  };
}

/**
 * Adds a continuation row's cells to another row (the row above, or with `before` the row below);
 * false when they do not fit its cells.
 */
function merge(prev: RowCell[], cells: readonly RowCell[], before = false): boolean {
  for (const c of cells) {
    const target = prev.find((p) => c.col >= p.col && c.col + c.colspan <= p.col + p.colspan);
    if (target) target.lines = before ? [...c.lines, ...target.lines] : [...target.lines, ...c.lines];
    else if (prev.some((p) => c.col < p.col + p.colspan && c.col + c.colspan > p.col)) return false;
    else prev.push({ ...c, lines: [...c.lines] });
  }
  return true;
}

/** Whether every column reads like running text: nearly all its rows fill its width. */
function isProse(body: readonly TextFragment[], cols: readonly Column[]): boolean {
  return cols.every((col) => {
    const rows = textRows(body.filter((f) => f.x0 >= col.x0 - 1 && f.x1 <= col.x1 + 1));
    if (rows.length < 3) return false;
    const full = rows.filter((r) => r[r.length - 1]!.x1 - r[0]!.x0 >= FULL_LINE_SHARE * (col.x1 - col.x0)).length;
    return full >= 0.6 * rows.length;
  });
}
