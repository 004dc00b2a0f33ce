/**
 * Lines -> paragraph-like blocks. Vertically close, horizontally overlapping lines of one size
 * form a block (pdfminer's text boxes); a block also ends at a first-line indent, a short
 * sentence-final line, a list marker, or a change of font.
 */
import { numberDepth } from './headings.js';
import type { Box, TextBlock, TextLine } from './layout-types.js';
import { toPage } from './pdfjs/text-items.js';
import { argmax } from './text-lines.js';
import { BULLET_START_RE, CJK_CHAR_RE, NUMBERED_START_RE, SENTENCE_END_RE } from './text-patterns.js';

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

/**
 * A short line that starts with a section number and does not end like a sentence. A word such as
 * "Section 1" in the paragraph's own font does not split it: a line of a cover or a letterhead.
 */
function isSectionHeadingLine(line: TextLine): boolean {
  return numberDepth(line.text) !== undefined && !SENTENCE_END_RE.test(line.text) && line.text.split(/\s+/).length <= 8;
}

function isListStart(text: string): boolean {
  return BULLET_START_RE.test(text) || NUMBERED_START_RE.test(text);
}

/** Whether `line` starts a new paragraph instead of continuing block `b` (which it would fit). */
function startsNewBlock(b: BlockBuilder, line: TextLine, gap: number): boolean {
  const last = b.lines[b.lines.length - 1]!;
  const first = b.lines[0]!;
  const size = Math.max(line.size, last.size);
  // Spacing: more room than the block's own line spacing. Paragraph spacing of exactly half the
  // font size lands on the limit, so a hundredth of a point of rounding must not decide.
  const limit = b.lines.length >= 2 ? Math.max(b.minGap, 0) + 0.5 * size : 1.0 * size;
  if (gap > limit - 0.01) return true;
  // A change of font size (a heading and its body).
  if (Math.abs(line.size - last.size) > 0.12 * size) return true;
  // A one-line block in another font: a run-in heading above its paragraph.
  if (b.lines.length === 1 && line.font !== last.font) return true;
  // A numbered heading on a line of its own ("2.1.1 Subsection"), or one right under another short line.
  if (isSectionHeadingLine(first) && b.lines.length === 1 && first.x1 - first.x0 < 0.6 * (line.x1 - line.x0)) return true;
  if (isSectionHeadingLine(line) && b.lines.length === 1 && !SENTENCE_END_RE.test(last.text) && last.text.split(/\s+/).length <= 12) return true;
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
    b.lines.length >= 2 && lastEndsSentence && atLeftEdge && last.x1 < b.x1 - Math.max(0.25 * (b.x1 - b.x0), 2 * size) && /^[\p{Lu}\p{N}"“‘(]/u.test(line.text)
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
      out += ` ${t}`;
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
  for (const l of lines) {
    x0 = Math.min(x0, l.x0);
    x1 = Math.max(x1, l.x1);
    top = Math.min(top, l.top);
    bottom = Math.max(bottom, l.bottom);
    sizeChars.set(l.size, (sizeChars.get(l.size) ?? 0) + l.text.length);
  }
  return {
    kind: 'text',
    text: joinLineTexts(lines.map((l) => l.text)),
    box: localBoxToPage(x0, top, x1, bottom, dir),
    lineCount: lines.length,
    size: argmax(sizeChars) ?? lines[0]?.size ?? 0,
    font: dominantFont(lines),
  };
}

/** The font most of the lines' characters are set in: a block's font. */
export function dominantFont(lines: readonly Pick<TextLine, 'font' | 'text'>[]): string {
  const chars = new Map<string, number>();
  for (const l of lines) chars.set(l.font, (chars.get(l.font) ?? 0) + l.text.length);
  return argmax(chars) ?? '';
}

// Text at a table's smallest size is its data when it holds this share of the cells.
const DATA_SHARE = 0.2;

/**
 * A table's font: that of its data cells, so that the table tells the page's body font. Header
 * cells and row labels are set apart by weight or a larger size, and are fewer than the data cells
 * (one row and one column of them): the font of most cells (lines) at the table's smallest size
 * that holds a fair share of them.
 */
export function tableFont(lines: readonly Pick<TextLine, 'font' | 'text' | 'size'>[]): string {
  const cells = lines.filter((l) => l.text.trim());
  const sizes = [...new Set(cells.map((l) => Math.round(l.size * 2) / 2))].sort((a, b) => a - b);
  for (const size of sizes) {
    const data = cells.filter((l) => Math.round(l.size * 2) / 2 === size);
    if (data.length >= DATA_SHARE * cells.length) {
      const count = new Map<string, number>();
      for (const l of data) count.set(l.font, (count.get(l.font) ?? 0) + 1);
      return argmax(count) ?? '';
    }
  }
  return dominantFont(lines);
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
