/**
 * Text fragments -> lines. Fragments that share a baseline and touch form a line (pdfminer's
 * `LAParams` idea): a first pass follows the content stream, a second joins lines the stream drew
 * in pieces. Column gutters, found from where text is dense and where it is not, are never bridged.
 */
import type { TextFragment, TextLine } from './layout-types.js';
import { BULLET_START_RE, CJK_CHAR_RE } from './text-patterns.js';

// A gap wider than this many font sizes ends a line: wider than word spacing in justified text,
// narrower than column gutters (and it splits table cells).
const MAX_WORD_GAP_EM = 1.5;
// A list marker ("•", "1.") may sit further from its text than a word gap.
const MAX_MARKER_GAP_EM = 4;
// A gap at least this wide (in font sizes) that spans a column gutter ends a line: gutters are
// often narrower than MAX_WORD_GAP_EM, and hyphenated line ends reach into them.
const MIN_GUTTER_GAP_EM = 0.8;
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
  // A section number ending in a dot ("2.3.1.") is a marker too: a tab stop may set the heading far from it.
  if (/^\d{1,2}(?:\.\d{1,2}){1,4}\.$/.test(t)) return true;
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
        } else {
          // In a space between the line's pieces: a word of the other direction in a right-to-left
          // line ("R" between the Arabic text and "Python").
          const hole = holeFor(a.frags, b, tol);
          if (!hole) continue;
          [from, gap] = hole;
        }
        if (gap > maxGap) continue;
        if (splitsAtGutter(from, from + gap, size, gutters)) continue;
        for (const f of b.frags) addFragment(a, f);
        b.alive = false;
        merged = true;
      }
    }
  }
}

/**
 * Where `b` sits in a space between fragments of a line, touching none of them: the left edge of that
 * space and the distance to the nearer neighbour; undefined when it overlaps a fragment.
 */
function holeFor(frags: readonly TextFragment[], b: LineBuilder, tol: number): [number, number] | undefined {
  let left = -Infinity;
  let right = Infinity;
  for (const f of frags) {
    if (f.x1 <= b.x0 + tol) left = Math.max(left, f.x1);
    else if (f.x0 >= b.x1 - tol) right = Math.min(right, f.x0);
    else return undefined;
  }
  if (left === -Infinity || right === Infinity) return undefined;
  return b.x0 - left <= right - b.x1 ? [left, Math.max(0, b.x0 - left)] : [b.x1, Math.max(0, right - b.x1)];
}

function finishLine(b: LineBuilder): TextLine {
  const frags = b.frags.length > 1 ? [...b.frags].sort((x, y) => x.x0 - y.x0) : b.frags;
  let text = '';
  let prev: TextFragment | undefined;
  const sizeChars = new Map<number, number>();
  const fontChars = new Map<string, number>();
  for (const f of logicalOrder(frags)) {
    if (prev) text += needsSpace(prev, f) ? ` ${f.text}` : f.text;
    else text = f.text;
    prev = f;
  }
  for (const f of frags) {
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

const RTL_CHAR_RE = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const RTL_CHARS_RE = new RegExp(RTL_CHAR_RE.source, 'gu');

/**
 * The fragments of a line (left to right) in reading order. A line mostly in a right-to-left script
 * reads from the right: its fragments in reverse, except that a run of fragments without
 * right-to-left letters (a Latin word, a number) keeps its own left-to-right order, as the Unicode
 * bidirectional algorithm orders runs. Each fragment's own text is already in logical order.
 */
function logicalOrder(frags: readonly TextFragment[]): readonly TextFragment[] {
  if (frags.length < 2) return frags;
  let rtl = 0;
  let ltr = 0;
  for (const f of frags) {
    const r = f.text.match(RTL_CHARS_RE)?.length ?? 0;
    rtl += r;
    ltr += (f.text.match(/\p{L}/gu)?.length ?? 0) - r;
  }
  if (rtl <= ltr) return frags;
  const out: TextFragment[] = [];
  let run: TextFragment[] = [];
  for (let i = frags.length - 1; i >= 0; i--) {
    const f = frags[i]!;
    if (RTL_CHAR_RE.test(f.text)) {
      out.push(...run.reverse(), f);
      run = [];
    } else run.push(f);
  }
  out.push(...run.reverse());
  return out;
}

function needsSpace(prev: TextFragment, next: TextFragment): boolean {
  if (/\s$/.test(prev.text) || /^\s/.test(next.text)) return false;
  // Visually adjacent either way round (a right-to-left line is read from the right).
  const gap = next.x0 >= prev.x0 ? next.x0 - prev.x1 : prev.x0 - next.x1;
  const size = Math.min(prev.size, next.size);
  // Where the script turns from right-to-left to left-to-right (or back) a word ends: the space
  // glyph is often drawn inside the right-to-left piece's width, so the pieces touch.
  if (
    RTL_CHAR_RE.test(prev.text.slice(-1)) !== RTL_CHAR_RE.test(next.text[0] ?? '') &&
    /[\p{L}\p{N}]/u.test(prev.text.slice(-1)) &&
    /[\p{L}\p{N}]/u.test(next.text[0] ?? '')
  )
    return gap > -0.3 * size;
  const cjk = CJK_CHAR_RE.test(prev.text.slice(-1)) && CJK_CHAR_RE.test(next.text[0] ?? '');
  return gap > (cjk ? 0.6 : 0.18) * size;
}

/** The key with the highest count. */
export function argmax<K>(counts: Map<K, number>): K | undefined {
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
