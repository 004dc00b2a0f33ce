/**
 * Text fragments -> lines -> blocks, in reading order.
 *
 * The approach follows pdfminer's layout analysis (`LAParams`: fragments that share a baseline and
 * touch form a line; vertically close, horizontally overlapping lines of one size form a box),
 * with paragraph breaks detected from first-line indents, short sentence-final lines and list
 * markers, and boxes ordered by a recursive XY-cut that prefers vertical cuts, so a two-column page
 * is read column by column. Pure functions over plain data: the page worker thread runs them too.
 */
import type { Box, TextBlock, TextFragment, TextLine } from './pdf-layout-types.js';
import { toPage } from './pdf-text-items.js';
import { BULLET_START_RE, CJK_CHAR_RE, NUMBERED_START_RE, SENTENCE_END_RE } from './pdf-text-patterns.js';

/** Splits lines into table blocks and the lines left over (see `pdf-tables.ts`). */
export type TableFinder = (lines: TextLine[]) => { tables: TextBlock[]; rest: TextLine[] };

/** Options of {@link layoutFragments}. */
export interface LayoutOptions {
  /** Finds tables among the horizontal lines before paragraphs are formed. */
  findTables?: TableFinder;
}

// A gap wider than this many font sizes ends a line: wider than word spacing in justified text,
// narrower than column gutters (and it splits table cells).
const MAX_WORD_GAP_EM = 1.5;
// A list marker ("•", "1.") may sit further from its text than a word gap.
const MAX_MARKER_GAP_EM = 4;
// A gap at least this wide (in font sizes) that spans a column gutter ends a line: gutters are
// often narrower than MAX_WORD_GAP_EM, and hyphenated line ends reach into them.
const MIN_GUTTER_GAP_EM = 0.8;

/**
 * Lays out one page: groups fragments by text direction, forms lines and blocks in each direction,
 * and returns all blocks in reading order.
 */
export function layoutFragments(fragments: readonly TextFragment[], options: LayoutOptions = {}): TextBlock[] {
  const byDir = new Map<number, TextFragment[]>();
  for (const f of fragments) {
    const list = byDir.get(f.dir);
    if (list) list.push(f);
    else byDir.set(f.dir, [f]);
  }
  const blocks: TextBlock[] = [];
  for (const [dir, frags] of byDir) {
    let lines = buildLines(frags);
    if (options.findTables && dir === 0) {
      const found = options.findTables(lines);
      blocks.push(...found.tables);
      lines = found.rest;
    }
    for (const group of groupLines(lines)) blocks.push(blockFromLines(group, dir));
  }
  return orderBlocks(blocks);
}

interface LineBuilder {
  frags: TextFragment[];
  dir: number;
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Vertical extent of the line's largest fragment: superscripts are tested against it. */
  coreTop: number;
  coreBottom: number;
  coreSize: number;
  alive: boolean;
}

/**
 * Forms lines from fragments of one direction. A first pass follows the content stream (usually
 * left to right, line by line); a second pass joins lines the stream drew in pieces.
 */
export function buildLines(fragments: readonly TextFragment[]): TextLine[] {
  const gutters = findGutters(fragments);
  const builders: LineBuilder[] = [];
  let cur: LineBuilder | undefined;
  for (const f of fragments) {
    if (cur) {
      const last = cur.frags[cur.frags.length - 1]!;
      if (isOverprint(last, f)) continue;
      if (continuesLine(cur, f, gutters)) {
        addFragment(cur, f);
        continue;
      }
    }
    cur = startLine(f);
    builders.push(cur);
  }
  mergeSplitLines(builders, gutters);
  const lines: TextLine[] = [];
  for (const b of builders) if (b.alive) lines.push(finishLine(b));
  return lines;
}

function startLine(f: TextFragment): LineBuilder {
  return {
    frags: [f],
    dir: f.dir,
    x0: f.x0,
    x1: f.x1,
    top: f.top,
    bottom: f.bottom,
    coreTop: f.top,
    coreBottom: f.bottom,
    coreSize: f.size,
    alive: true,
  };
}

function addFragment(line: LineBuilder, f: TextFragment): void {
  line.frags.push(f);
  line.x0 = Math.min(line.x0, f.x0);
  line.x1 = Math.max(line.x1, f.x1);
  line.top = Math.min(line.top, f.top);
  line.bottom = Math.max(line.bottom, f.bottom);
  if (f.size > line.coreSize) {
    line.coreSize = f.size;
    line.coreTop = f.top;
    line.coreBottom = f.bottom;
  }
}

/** The same text drawn again at (almost) the same place: fake bold or a shadow. */
function isOverprint(a: TextFragment, b: TextFragment): boolean {
  const tol = 0.2 * Math.max(a.size, b.size);
  return a.text === b.text && Math.abs(a.x0 - b.x0) < tol && Math.abs(a.baseline - b.baseline) < tol;
}

/**
 * Whether two vertical extents belong to one line: they overlap by half the smaller height, or the
 * smaller one is a super- or subscript sitting just above or below the larger one.
 */
function sameRow(aTop: number, aBottom: number, aSize: number, bTop: number, bBottom: number, bSize: number): boolean {
  const overlap = Math.min(aBottom, bBottom) - Math.max(aTop, bTop);
  if (overlap >= 0.5 * Math.min(aBottom - aTop, bBottom - bTop)) return true;
  if (aSize <= 0.85 * bSize) return aTop < bBottom + 0.25 * bSize && aBottom > bTop - 0.35 * bSize;
  if (bSize <= 0.85 * aSize) return bTop < aBottom + 0.25 * aSize && bBottom > aTop - 0.35 * aSize;
  return false;
}

function isMarkerOnly(frags: readonly TextFragment[]): boolean {
  if (frags.length !== 1) return false;
  const t = frags[0]!.text.trim();
  return t.length <= 4 && (BULLET_START_RE.test(t) || /^(?:\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)])$/.test(t));
}

function continuesLine(line: LineBuilder, f: TextFragment, gutters: readonly Gutter[]): boolean {
  if (f.dir !== line.dir) return false;
  if (!sameRow(line.coreTop, line.coreBottom, line.coreSize, f.top, f.bottom, f.size)) return false;
  const size = Math.max(line.coreSize, f.size);
  const gap = f.x0 - line.x1;
  // Going back left ends the line, except for a stacked sub/superscript inside the line.
  if (gap < -0.5 * size && !(f.size <= 0.85 * line.coreSize && gap >= -2 * line.coreSize)) return false;
  if (gap > (isMarkerOnly(line.frags) ? MAX_MARKER_GAP_EM : MAX_WORD_GAP_EM) * size) return false;
  return !splitsAtGutter(line.x1, f.x0, size, gutters);
}

/**
 * Whether the gap between `from` and `to` separates columns: a wide gap across a gutter, or a
 * word-sized gap whose right side starts inside a gutter (a column line whose first glyphs are
 * positioned by an offset, so its fragment starts early).
 */
function splitsAtGutter(from: number, to: number, size: number, gutters: readonly Gutter[]): boolean {
  const gap = to - from;
  if (gap < 0.15 * size) return false;
  for (const g of gutters) {
    const mid = (g.x0 + g.x1) / 2;
    if (gap >= MIN_GUTTER_GAP_EM * size && mid > from && mid < to) return true;
    if (to >= g.x0 && to <= g.x1 && from >= g.x0 - 0.5 * size) return true;
  }
  return false;
}

/** A vertical strip, free of text where the text beside it is dense: a column gutter. */
interface Gutter {
  x0: number;
  x1: number;
}

/**
 * Finds column gutters: x positions crossed by few fragments while both sides, within a window,
 * are crossed by many. Full-width lines (titles, wide figures' captions) cross a gutter too, which
 * is why the test is relative rather than "no text at all".
 */
export function findGutters(fragments: readonly TextFragment[]): Gutter[] {
  if (fragments.length < 20) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const f of fragments) {
    min = Math.min(min, f.x0);
    max = Math.max(max, f.x1);
  }
  const width = Math.ceil(max - min) + 2;
  if (!(width > 0) || width > 20000) return [];
  // Coverage: how many fragments cross each 1-point column.
  const diff = new Int32Array(width + 1);
  for (const f of fragments) {
    const a = Math.max(0, Math.floor(f.x0 - min));
    const b = Math.min(width, Math.ceil(f.x1 - min));
    if (b <= a) continue;
    diff[a]! += 1;
    diff[b]! -= 1;
  }
  const cov = new Int32Array(width);
  let run = 0;
  let peak = 0;
  for (let x = 0; x < width; x++) {
    run += diff[x]!;
    cov[x] = run;
    if (run > peak) peak = run;
  }
  if (peak < 8) return [];
  const window = Math.max(100, Math.round(0.3 * width));
  const gutters: Gutter[] = [];
  let start = -1;
  for (let x = 0; x <= width; x++) {
    let low = false;
    if (x < width && cov[x]! <= 0.25 * peak) {
      let left = 0;
      for (let k = Math.max(0, x - window); k < x; k++) if (cov[k]! > left) left = cov[k]!;
      let right = 0;
      for (let k = x + 1; k < Math.min(width, x + window + 1); k++) if (cov[k]! > right) right = cov[k]!;
      const side = Math.min(left, right);
      low = side >= 8 && cov[x]! <= 0.25 * side;
    }
    if (low && start < 0) start = x;
    if (!low && start >= 0) {
      if (x - start >= 3) gutters.push({ x0: min + start, x1: min + x });
      start = -1;
    }
  }
  return gutters;
}

function mergeSplitLines(builders: LineBuilder[], gutters: readonly Gutter[]): void {
  if (builders.length < 2) return;
  const sorted = [...builders].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i]!;
    if (!a.alive) continue;
    let merged = true;
    while (merged) {
      merged = false;
      for (let j = i + 1; j < sorted.length; j++) {
        const b = sorted[j]!;
        if (b.top > a.bottom + 0.25 * a.coreSize) break;
        if (!b.alive || b.dir !== a.dir) continue;
        if (!sameRow(a.coreTop, a.coreBottom, a.coreSize, b.coreTop, b.coreBottom, b.coreSize)) continue;
        const size = Math.max(a.coreSize, b.coreSize);
        const tol = 0.3 * size;
        let gap: number;
        let maxGap = MAX_WORD_GAP_EM * size;
        let from: number;
        if (b.x0 >= a.x1 - tol) {
          gap = b.x0 - a.x1;
          from = a.x1;
          if (isMarkerOnly(a.frags)) maxGap = MAX_MARKER_GAP_EM * size;
        } else if (b.x1 <= a.x0 + tol) {
          gap = a.x0 - b.x1;
          from = b.x1;
          if (isMarkerOnly(b.frags)) maxGap = MAX_MARKER_GAP_EM * size;
        } else continue;
        if (gap > maxGap) continue;
        if (splitsAtGutter(from, from + gap, size, gutters)) continue;
        for (const f of b.frags) addFragment(a, f);
        b.alive = false;
        merged = true;
      }
    }
  }
}

function finishLine(b: LineBuilder): TextLine {
  const frags = b.frags.length > 1 ? [...b.frags].sort((x, y) => x.x0 - y.x0) : b.frags;
  let text = '';
  let prev: TextFragment | undefined;
  const sizeChars = new Map<number, number>();
  const fontChars = new Map<string, number>();
  for (const f of frags) {
    if (prev) text += needsSpace(prev, f) ? ' ' + f.text : f.text;
    else text = f.text;
    prev = f;
    const n = f.text.length;
    const sizeKey = Math.round(f.size * 10) / 10;
    sizeChars.set(sizeKey, (sizeChars.get(sizeKey) ?? 0) + n);
    fontChars.set(f.font, (fontChars.get(f.font) ?? 0) + n);
  }
  return {
    fragments: frags,
    x0: b.x0,
    x1: b.x1,
    top: b.top,
    bottom: b.bottom,
    size: argmax(sizeChars) ?? b.coreSize,
    font: argmax(fontChars) ?? '',
    dir: b.dir,
    text: text.replace(/ {2,}/g, ' ').trim(),
  };
}

function needsSpace(prev: TextFragment, next: TextFragment): boolean {
  if (/\s$/.test(prev.text) || /^\s/.test(next.text)) return false;
  const gap = next.x0 - prev.x1;
  const size = Math.min(prev.size, next.size);
  const cjk = CJK_CHAR_RE.test(prev.text.slice(-1)) && CJK_CHAR_RE.test(next.text[0] ?? '');
  return gap > (cjk ? 0.6 : 0.18) * size;
}

function argmax<K>(counts: Map<K, number>): K | undefined {
  let best: K | undefined;
  let bestN = -1;
  for (const [k, n] of counts) {
    if (n > bestN) {
      best = k;
      bestN = n;
    }
  }
  return best;
}

interface BlockBuilder {
  lines: TextLine[];
  x0: number;
  x1: number;
  bottom: number;
  minGap: number;
}

/** Groups lines of one direction into paragraph-like blocks (lines in top-to-bottom order). */
export function groupLines(lines: readonly TextLine[]): TextLine[][] {
  const sorted = [...lines].sort((a, b) => a.top - b.top || a.x0 - b.x0);
  let open: BlockBuilder[] = [];
  const all: BlockBuilder[] = [];
  let sincePrune = 0;
  for (const line of sorted) {
    const width = line.x1 - line.x0;
    let best: BlockBuilder | undefined;
    let bestGap = Infinity;
    let bestOverlap = 0;
    for (const b of open) {
      const last = b.lines[b.lines.length - 1]!;
      const gap = line.top - last.bottom;
      const size = Math.max(line.size, last.size);
      if (gap < -0.5 * size || gap > 2 * size) continue;
      const overlap = Math.min(line.x1, b.x1) - Math.max(line.x0, b.x0);
      if (overlap <= 0 || overlap < 0.5 * Math.min(width, b.x1 - b.x0)) continue;
      // A column does not suddenly get a line much wider than itself.
      if (b.lines.length >= 3 && width > 1.5 * (b.x1 - b.x0)) continue;
      if (gap < bestGap - 0.01 || (Math.abs(gap - bestGap) <= 0.01 && overlap > bestOverlap)) {
        best = b;
        bestGap = gap;
        bestOverlap = overlap;
      }
    }
    if (best && !startsNewBlock(best, line, bestGap)) {
      best.lines.push(line);
      best.x0 = Math.min(best.x0, line.x0);
      best.x1 = Math.max(best.x1, line.x1);
      best.bottom = Math.max(best.bottom, line.bottom);
      best.minGap = Math.min(best.minGap, bestGap);
    } else {
      const b: BlockBuilder = { lines: [line], x0: line.x0, x1: line.x1, bottom: line.bottom, minGap: Infinity };
      open.push(b);
      all.push(b);
    }
    if (++sincePrune >= 32) {
      sincePrune = 0;
      open = open.filter((b) => line.top - b.bottom <= 3 * line.size);
    }
  }
  return all.map((b) => b.lines);
}

function isListStart(text: string): boolean {
  return BULLET_START_RE.test(text) || NUMBERED_START_RE.test(text);
}

/** Whether `line` starts a new paragraph instead of continuing block `b` (which it would fit). */
function startsNewBlock(b: BlockBuilder, line: TextLine, gap: number): boolean {
  const last = b.lines[b.lines.length - 1]!;
  const first = b.lines[0]!;
  const size = Math.max(line.size, last.size);
  // Spacing: more room than the block's own line spacing.
  const limit = b.lines.length >= 2 ? Math.max(b.minGap, 0) + 0.5 * size : 1.0 * size;
  if (gap > limit) return true;
  // A change of font size (a heading and its body).
  if (Math.abs(line.size - last.size) > 0.12 * size) return true;
  // A one-line block in another font: a run-in heading above its paragraph.
  if (b.lines.length === 1 && line.font !== last.font) return true;
  // List items.
  if (BULLET_START_RE.test(line.text)) return true;
  const lastEndsSentence = SENTENCE_END_RE.test(last.text);
  if (NUMBERED_START_RE.test(line.text) && (lastEndsSentence || isListStart(first.text))) return true;
  const atLeftEdge = Math.abs(line.x0 - b.x0) < 0.5 * size;
  // A first-line indent after a line that ended the previous paragraph.
  if (
    line.x0 - last.x0 > 0.8 * line.size &&
    Math.abs(last.x0 - b.x0) < 0.5 * size &&
    !isListStart(first.text) &&
    (lastEndsSentence || last.x1 < b.x1 - 1.5 * size)
  ) {
    return true;
  }
  // A short, sentence-final line followed by a line at the left edge: block-style paragraphs.
  return (
    b.lines.length >= 2 &&
    lastEndsSentence &&
    atLeftEdge &&
    last.x1 < b.x1 - Math.max(0.25 * (b.x1 - b.x0), 2 * size) &&
    /^[\p{Lu}\p{N}"“‘(]/u.test(line.text)
  );
}

/** Joins line texts: a hyphen at a line end before a lower-case letter is removed. */
export function joinLineTexts(texts: readonly string[]): string {
  let out = '';
  for (const raw of texts) {
    const t = raw.trim();
    if (!t) continue;
    if (!out) {
      out = t;
      continue;
    }
    const prevChar = out[out.length - 1]!;
    const nextChar = t[0]!;
    if (prevChar === '\u00AD') {
      out = out.slice(0, -1) + t;
    } else if (prevChar === '-' && /\p{L}/u.test(out[out.length - 2] ?? '') && /\p{L}|\d/u.test(nextChar)) {
      // "ef-" + "ficient": a broken word. "Lucene-" + "BM25": a compound that keeps its hyphen.
      out = /\p{Ll}/u.test(nextChar) ? out.slice(0, -1) + t : out + t;
    } else if (CJK_CHAR_RE.test(prevChar) && CJK_CHAR_RE.test(nextChar)) {
      out += t;
    } else {
      out += ' ' + t;
    }
  }
  return out;
}

/** Builds a block from lines of direction `dir`, with its box in the page frame. */
export function blockFromLines(lines: readonly TextLine[], dir: number): TextBlock {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  const sizeChars = new Map<number, number>();
  const fontChars = new Map<string, number>();
  for (const l of lines) {
    x0 = Math.min(x0, l.x0);
    x1 = Math.max(x1, l.x1);
    top = Math.min(top, l.top);
    bottom = Math.max(bottom, l.bottom);
    sizeChars.set(l.size, (sizeChars.get(l.size) ?? 0) + l.text.length);
    fontChars.set(l.font, (fontChars.get(l.font) ?? 0) + l.text.length);
  }
  return {
    kind: 'text',
    text: joinLineTexts(lines.map((l) => l.text)),
    box: localBoxToPage(x0, top, x1, bottom, dir),
    lineCount: lines.length,
    size: argmax(sizeChars) ?? lines[0]?.size ?? 0,
    font: argmax(fontChars) ?? '',
  };
}

/** Maps a local-frame rectangle of direction `dir` to an axis-aligned page-frame box. */
export function localBoxToPage(x0: number, y0: number, x1: number, y1: number, dir: number): Box {
  if (dir === 0) return { x0, y0, x1, y1 };
  const corners = [toPage(x0, y0, dir), toPage(x1, y0, dir), toPage(x1, y1, dir), toPage(x0, y1, dir)];
  return {
    x0: Math.min(...corners.map((c) => c[0])),
    y0: Math.min(...corners.map((c) => c[1])),
    x1: Math.max(...corners.map((c) => c[0])),
    y1: Math.max(...corners.map((c) => c[1])),
  };
}

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
