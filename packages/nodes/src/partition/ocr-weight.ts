/**
 * Which OCR'd lines are set in bold, read from the page image: Tesseract's LSTM engine gives no font
 * attributes, while a born-digital PDF's headings are told apart by their weight as much as by their
 * size. A line's stroke width is the mean length of the dark runs across its words' boxes, row by row,
 * over its row height; a line whose strokes are clearly thicker than the page's running text is bold.
 *
 * Pure functions over pixels, no run-time dependency on `@quarry/core`.
 */
import { INK } from './luma.js';
import type { OcrLine } from './ocr-types.js';

// Bold strokes are 1.4-1.8 times as thick as regular ones; 1.3 leaves the noise of short lines out.
const BOLD_RATIO = 1.3;
// The page's running text: lines of at least this many characters, at least this many of them.
const BODY_LINE_CHARS = 20;
const MIN_BODY_LINES = 5;

/**
 * The lines of `lines` set in bold (see the module comment); none when the page has too little
 * running text to compare with.
 *
 * @param grey the OCR'd image, one luma byte per pixel, in whose pixels the lines' boxes are.
 */
export function boldLines(lines: readonly OcrLine[], grey: Uint8Array, width: number, height: number): Set<OcrLine> {
  const measured = lines.map((line) => ({ line, stroke: strokeOf(line, grey, width, height), chars: line.text.trim().length }));
  const body = measured.filter((m) => m.chars >= BODY_LINE_CHARS && m.stroke > 0);
  if (body.length < MIN_BODY_LINES) return new Set();
  const strokes = body.map((m) => m.stroke).sort((a, b) => a - b);
  const typical = strokes[Math.floor(strokes.length / 2)]!;
  return new Set(measured.filter((m) => m.stroke >= BOLD_RATIO * typical && /\p{L}{2}/u.test(m.line.text)).map((m) => m.line));
}

/** The mean length of the ink runs along the rows of a line's word boxes, over its row height (0 without ink). */
function strokeOf(line: OcrLine, grey: Uint8Array, width: number, height: number): number {
  let ink = 0;
  let runs = 0;
  for (const w of line.words) {
    const x0 = Math.max(0, Math.round(w.bbox.x0));
    const x1 = Math.min(width, Math.round(w.bbox.x1));
    for (let y = Math.max(0, Math.round(w.bbox.y0)); y < Math.min(height, Math.round(w.bbox.y1)); y++) {
      let inRun = false;
      for (let x = x0; x < x1; x++) {
        const dark = grey[y * width + x]! < INK;
        if (dark) {
          ink++;
          if (!inRun) runs++;
        }
        inRun = dark;
      }
    }
  }
  return runs > 0 && line.rowHeight > 0 ? ink / runs / line.rowHeight : 0;
}
