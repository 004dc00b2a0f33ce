/**
 * List bullets that OCR misreads: Tesseract reads a round bullet as "e", "o", "°", "«" or ".", so a
 * scanned list item reads as a paragraph starting with a stray letter. The page image tells: a bullet
 * is a solid round dot standing above the baseline (a full stop sits on it), apart from the text it
 * leads. Such a first word of a line is given the text "•", so the line is a list item, its bullet
 * dropped, as on a born-digital page.
 *
 * Pure functions over pixels, no run-time dependency on `@quarry/core`.
 */
import { INK } from './luma.js';
import type { OcrLine } from './ocr-types.js';

/** What a bullet's word becomes. */
export const BULLET = '\u2022';
// A disc fills pi/4 of its box, a filled square all of it; letters read in their place ("e", "o") half or less.
const MIN_FILL = 0.62;
// Round or square: the ink's width over its height.
const MIN_ASPECT = 0.6;
const MAX_ASPECT = 1.7;
// A bullet's dot is a quarter to two thirds of the row height tall.
const MIN_DOT = 0.15;
const MAX_DOT = 0.7;
// Its centre stands this many row heights above the baseline (a full stop's is on it).
const MIN_RAISE = 0.15;
// The text it leads starts at least this many row heights to its right.
const MIN_GAP = 0.25;

/**
 * Gives the first word of each line of `lines` that is a misread bullet (see the module comment)
 * the text {@link BULLET}, in place (the line's text too). Returns how many it changed.
 *
 * @param grey the OCR'd image, one luma byte per pixel, in whose pixels the lines' boxes are.
 */
export function markBullets(lines: readonly OcrLine[], grey: Uint8Array, width: number, height: number): number {
  let n = 0;
  for (const line of lines) {
    const [first, next] = line.words;
    const h = line.rowHeight;
    if (!first || !(h > 0) || first.text.trim() === BULLET) continue;
    const isDot = (box: Box | undefined): box is Box => box !== undefined && dotLike(box, line.baseline, h);
    if (next && [...first.text.trim()].length === 1 && next.bbox.x0 - first.bbox.x1 >= MIN_GAP * h && isDot(inkBox(first.bbox, grey, width, height))) {
      line.text = line.text.replace(first.text, BULLET);
      first.text = BULLET;
      // The page image tells it is a bullet: no speck of low confidence to leave out.
      first.confidence = 100;
      n++;
      continue;
    }
    // A bullet Tesseract read nothing of: a dot alone left of the line's first word, clear of it
    // (a first word that is a mark itself, a bullet read as "*" or "-", leads the item already).
    if (/^[^\p{L}\p{N}]$/u.test(first.text.trim())) continue;
    const left = { x0: first.bbox.x0 - MAX_LEAD * h, y0: line.baseline - h, x1: first.bbox.x0 - MIN_GAP * h, y1: line.baseline };
    const dot = inkBox(left, grey, width, height);
    if (isDot(dot) && dot.x0 > left.x0 && !lines.some((l) => l.words.some((w) => overlaps(w.bbox, left)))) {
      line.words.unshift({ text: BULLET, confidence: 100, bbox: { x0: dot.x0, y0: dot.y0, x1: dot.x1 + 1, y1: dot.y1 + 1 } });
      line.text = `${BULLET} ${line.text}`;
      n++;
    }
  }
  return n;
}

// A bullet stands at most this many row heights left of the text it leads.
const MAX_LEAD = 2.5;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

interface Ink extends Box {
  ink: number;
}

/** Whether ink is a solid dot raised above the baseline of a line of row height `h`. */
function dotLike(dot: Box | Ink, baseline: number, h: number): boolean {
  const w = dot.x1 - dot.x0 + 1;
  const t = dot.y1 - dot.y0 + 1;
  const aspect = w / t;
  if (!('ink' in dot) || dot.ink < MIN_FILL * w * t || aspect < MIN_ASPECT || aspect > MAX_ASPECT) return false;
  return t >= MIN_DOT * h && t <= MAX_DOT * h && (dot.y0 + dot.y1) / 2 <= baseline - MIN_RAISE * h;
}

const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && a.x1 > b.x0 && a.y0 < b.y1 && a.y1 > b.y0;

/** The box of the ink inside `box` (its last pixels included), with its count of ink pixels; undefined without ink. */
function inkBox(box: Box, grey: Uint8Array, width: number, height: number): Ink | undefined {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  let ink = 0;
  for (let y = Math.max(0, Math.floor(box.y0)); y < Math.min(height, Math.ceil(box.y1)); y++) {
    for (let x = Math.max(0, Math.floor(box.x0)); x < Math.min(width, Math.ceil(box.x1)); x++) {
      if (grey[y * width + x]! >= INK) continue;
      ink++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return ink > 0 ? { x0, y0, x1, y1, ink } : undefined;
}
