/**
 * Ruling lines -> table grids (the "lattice" reading of Camelot and tabula's spreadsheet mode, and
 * pdfplumber's line strategy). The engines hand over the painted straight lines and rectangle edges
 * of a page; here they are merged into horizontal and vertical rulings, rulings that cross are
 * grouped into ruled regions, and each region becomes a grid whose cells span where a separating
 * ruling is missing.
 *
 * Pure functions over plain data, no run-time dependency on `@quarry/core`: the page worker thread
 * runs them too.
 */
import type { Box } from './layout-types.js';

/** How a path was painted. */
export type PathPaint = 'stroke' | 'fill' | 'both';

/** A merged horizontal (`pos` = y) or vertical (`pos` = x) ruling from `from` to `to`. */
export interface Ruling {
  pos: number;
  from: number;
  to: number;
}

/** One cell of a ruled grid: its top-left grid position and spans. */
export interface GridCell {
  row: number;
  col: number;
  rowspan: number;
  colspan: number;
}

/** A ruled region: grid line positions and the cells between them. */
export interface RuledGrid {
  /** Column boundaries, left to right (n + 1 values for n columns). */
  xs: number[];
  /** Row boundaries, top to bottom. */
  ys: number[];
  /** Cells in row-major order of their top-left corner; every grid position is covered once. */
  cells: GridCell[];
  box: Box;
}

// A filled rectangle this thin (points) is drawn as a line.
const MAX_LINE_THICKNESS = 3;
// Positions closer than this are one ruling, and rulings closer end to end than this join.
const SNAP = 1.5;
const JOIN = 3;
// How far a ruling may fall short of another and still meet it.
const MEET = 3;
// Shorter rulings are tick marks, underlines of a glyph, or noise.
const MIN_RULING = 6;
// Slanted strokes shorter than this draw a glyph or a mark (a tick, an arrow head), not a chart's line.
const MIN_SLANT = 2;
// A rectangle covering this share of the page is a background, not a cell.
const MAX_RECT_PAGE_SHARE = 0.5;

/**
 * The straight pieces of one painted path (page points, `undefined` marks a curved subpath): axis-aligned
 * ones as zero-thickness boxes (stroked segments, thin filled rectangles as their centre line, other
 * filled rectangles as their four edges: cell backgrounds and frames), and stroked slanted segments
 * as their bounding boxes, which {@link slantedStrokes} tells apart (a chart's lines).
 */
export function rulingsOfPath(
  subpaths: readonly (readonly (readonly [number, number])[] | undefined)[],
  paint: PathPaint,
  pageWidth: number,
  pageHeight: number,
): Box[] {
  const out: Box[] = [];
  for (const pts of subpaths) {
    if (!pts) continue;
    const rect = paint === 'fill' ? rectangleOf(pts) : undefined;
    if (rect) {
      const w = rect.x1 - rect.x0;
      const h = rect.y1 - rect.y0;
      if (h <= MAX_LINE_THICKNESS && w > h) out.push({ x0: rect.x0, x1: rect.x1, y0: (rect.y0 + rect.y1) / 2, y1: (rect.y0 + rect.y1) / 2 });
      else if (w <= MAX_LINE_THICKNESS) out.push({ x0: (rect.x0 + rect.x1) / 2, x1: (rect.x0 + rect.x1) / 2, y0: rect.y0, y1: rect.y1 });
      else if (w * h < MAX_RECT_PAGE_SHARE * pageWidth * pageHeight) {
        out.push({ x0: rect.x0, x1: rect.x1, y0: rect.y0, y1: rect.y0 }, { x0: rect.x0, x1: rect.x1, y0: rect.y1, y1: rect.y1 });
        out.push({ x0: rect.x0, x1: rect.x0, y0: rect.y0, y1: rect.y1 }, { x0: rect.x1, x1: rect.x1, y0: rect.y0, y1: rect.y1 });
      }
      continue;
    }
    if (paint === 'fill') continue;
    for (let i = 1; i < pts.length; i++) {
      const [ax, ay] = pts[i - 1]!;
      const [bx, by] = pts[i]!;
      if (Math.abs(ay - by) < 0.5) out.push({ x0: Math.min(ax, bx), x1: Math.max(ax, bx), y0: (ay + by) / 2, y1: (ay + by) / 2 });
      else if (Math.abs(ax - bx) < 0.5) out.push({ x0: (ax + bx) / 2, x1: (ax + bx) / 2, y0: Math.min(ay, by), y1: Math.max(ay, by) });
      else if (Math.hypot(ax - bx, ay - by) >= MIN_SLANT) out.push({ x0: Math.min(ax, bx), x1: Math.max(ax, bx), y0: Math.min(ay, by), y1: Math.max(ay, by) });
    }
  }
  return out.filter((b) => b.x1 >= 0 && b.x0 <= pageWidth && b.y1 >= 0 && b.y0 <= pageHeight);
}

/** The box of a closed axis-aligned four-corner path, or undefined. */
function rectangleOf(all: readonly (readonly [number, number])[]): Box | undefined {
  // Repeated points (a closing segment drawn explicitly, then closed again) do not count.
  const same = (a: readonly [number, number], b: readonly [number, number]): boolean => Math.abs(a[0] - b[0]) < 0.01 && Math.abs(a[1] - b[1]) < 0.01;
  const pts = all.filter((p, i) => i === 0 || !same(p, all[i - 1]!));
  while (pts.length > 1 && same(pts[pts.length - 1]!, pts[0]!)) pts.pop();
  if (pts.length !== 4) return undefined;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = pts[i]!;
    const [bx, by] = pts[(i + 1) % 4]!;
    if (Math.abs(ax - bx) > 0.5 && Math.abs(ay - by) > 0.5) return undefined;
  }
  const xs = pts.slice(0, 4).map((p) => p[0]);
  const ys = pts.slice(0, 4).map((p) => p[1]);
  return { x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys) };
}

/** The slanted strokes among {@link rulingsOfPath}'s boxes (neither of their sides is zero). */
export function slantedStrokes(boxes: readonly Box[]): Box[] {
  return boxes.filter((b) => b.x1 - b.x0 >= 0.5 && b.y1 - b.y0 >= 0.5);
}

/** Splits zero-thickness boxes into merged horizontal and vertical rulings (slanted strokes are left out). */
export function mergeRulings(boxes: readonly Box[]): { horizontal: Ruling[]; vertical: Ruling[] } {
  const h: Ruling[] = [];
  const v: Ruling[] = [];
  for (const b of boxes) {
    if (b.y1 - b.y0 < 0.5 && b.x1 - b.x0 > 0) h.push({ pos: (b.y0 + b.y1) / 2, from: b.x0, to: b.x1 });
    else if (b.x1 - b.x0 < 0.5 && b.y1 - b.y0 > 0) v.push({ pos: (b.x0 + b.x1) / 2, from: b.y0, to: b.y1 });
  }
  return { horizontal: joinCollinear(h), vertical: joinCollinear(v) };
}

/** Snaps rulings at about the same position together and joins those that touch end to end. */
function joinCollinear(segs: Ruling[]): Ruling[] {
  const sorted = [...segs].sort((a, b) => a.pos - b.pos || a.from - b.from);
  const groups: Ruling[][] = [];
  for (const s of sorted) {
    const g = groups[groups.length - 1];
    if (g && s.pos - g[0]!.pos <= SNAP) g.push(s);
    else groups.push([s]);
  }
  const out: Ruling[] = [];
  for (const g of groups) {
    const pos = g.reduce((sum, s) => sum + s.pos, 0) / g.length;
    const byStart = [...g].sort((a, b) => a.from - b.from);
    let cur: Ruling | undefined;
    for (const s of byStart) {
      if (cur && s.from <= cur.to + JOIN) cur.to = Math.max(cur.to, s.to);
      else {
        if (cur) out.push(cur);
        cur = { pos, from: s.from, to: s.to };
      }
    }
    if (cur) out.push(cur);
  }
  return out.filter((s) => s.to - s.from >= MIN_RULING);
}

const meets = (h: Ruling, v: Ruling): boolean => v.pos >= h.from - MEET && v.pos <= h.to + MEET && h.pos >= v.from - MEET && h.pos <= v.to + MEET;

/**
 * Ruled regions with at least two horizontal and two vertical rulings that cross, as grids. A cell
 * spans the grid positions between which no ruling separates it (a ruling covering at least half
 * of the boundary counts), so spanning header cells come out with their `rowspan`/`colspan`.
 */
export function findRuledGrids(horizontal: readonly Ruling[], vertical: readonly Ruling[]): RuledGrid[] {
  const nh = horizontal.length;
  const parent = Array.from({ length: nh + vertical.length }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let i = 0; i < nh; i++) {
    for (let j = 0; j < vertical.length; j++) if (meets(horizontal[i]!, vertical[j]!)) parent[find(i)] = find(nh + j);
  }
  const comps = new Map<number, { h: Ruling[]; v: Ruling[] }>();
  for (let i = 0; i < parent.length; i++) {
    const root = find(i);
    let c = comps.get(root);
    if (!c) comps.set(root, (c = { h: [], v: [] }));
    if (i < nh) c.h.push(horizontal[i]!);
    else c.v.push(vertical[i - nh]!);
  }
  const grids: RuledGrid[] = [];
  for (const { h, v } of comps.values()) {
    if (h.length < 2 || v.length < 2) continue;
    const grid = gridOf(h, v);
    if (grid) grids.push(grid);
  }
  return grids;
}

/** Positions within {@link SNAP} of each other, as one (their mean), ascending. */
function clusterPositions(values: number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const out: number[][] = [];
  for (const v of sorted) {
    const last = out[out.length - 1];
    if (last && v - last[last.length - 1]! <= MEET) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((s, x) => s + x, 0) / g.length);
}

/** Share of the interval [a, b] covered by rulings at `pos` (within the snap distance). */
function coverage(rulings: readonly Ruling[], pos: number, a: number, b: number): number {
  const len = b - a;
  if (len <= 0) return 0;
  let covered = 0;
  for (const r of rulings) {
    if (Math.abs(r.pos - pos) > MEET) continue;
    covered += Math.max(0, Math.min(b, r.to) - Math.max(a, r.from));
  }
  return covered / len;
}

function gridOf(h: readonly Ruling[], v: readonly Ruling[]): RuledGrid | undefined {
  const xs = clusterPositions(v.map((r) => r.pos));
  const ys = clusterPositions(h.map((r) => r.pos));
  // A table ruled across with open sides: where two or more of its rules run past the outer column
  // lines, their ends are the table's side walls.
  const froms = h.map((r) => r.from).sort((a, b) => a - b);
  const tos = h.map((r) => r.to).sort((a, b) => b - a);
  if (froms.length >= 2 && froms[1]! < xs[0]! - MEET) xs.unshift(froms[1]!);
  if (tos.length >= 2 && tos[1]! > xs[xs.length - 1]! + MEET) xs.push(tos[1]!);
  const cols = xs.length - 1;
  const rows = ys.length - 1;
  if (cols < 1 || rows < 1) return undefined;
  // Union-find over grid positions: neighbours with no ruling between them are one cell.
  const id = (r: number, c: number): number => r * cols + c;
  const parent = Array.from({ length: rows * cols }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (c + 1 < cols && coverage(v, xs[c + 1]!, ys[r]!, ys[r + 1]!) < 0.5) parent[find(id(r, c + 1))] = find(id(r, c));
      if (r + 1 < rows && coverage(h, ys[r + 1]!, xs[c]!, xs[c + 1]!) < 0.5) parent[find(id(r + 1, c))] = find(id(r, c));
    }
  }
  const extent = new Map<number, { r0: number; r1: number; c0: number; c1: number }>();
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const root = find(id(r, c));
      const e = extent.get(root);
      if (!e) extent.set(root, { r0: r, r1: r, c0: c, c1: c });
      else {
        e.r1 = Math.max(e.r1, r);
        e.c0 = Math.min(e.c0, c);
        e.c1 = Math.max(e.c1, c);
      }
    }
  }
  // A region that is not a rectangle takes its bounding rectangle; positions it covers are its own.
  const taken = new Array<boolean>(rows * cols).fill(false);
  const cells: GridCell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (taken[id(r, c)]) continue;
      const e = extent.get(find(id(r, c)))!;
      const r1 = Math.max(r, e.r1);
      let c1 = Math.max(c, e.c1);
      // Never run into a position already taken.
      for (let cc = c; cc <= c1; cc++) if (taken[id(r, cc)]) c1 = cc - 1;
      for (let rr = r; rr <= r1; rr++) for (let cc = c; cc <= c1; cc++) taken[id(rr, cc)] = true;
      cells.push({ row: r, col: c, rowspan: r1 - r + 1, colspan: c1 - c + 1 });
    }
  }
  return { xs, ys, cells, box: { x0: xs[0]!, y0: ys[0]!, x1: xs[cols]!, y1: ys[rows]! } };
}
