import type { OcrResult } from '../../ocr.js';
import type { TextFragment } from './layout-types.js';

// OCR words below this confidence that contain no letter or digit are speckles.
const MIN_NOISE_CONFIDENCE = 40;

/**
 * OCR words -> fragments in page points. Every word of a line takes the line's baseline and row
 * height, so a line's words share one extent and the font size does not depend on which letters a
 * line happens to contain.
 */
export function fragmentsFromOcr(ocr: OcrResult, scale: number): TextFragment[] {
  const fragments: TextFragment[] = [];
  for (const line of ocr.lines) {
    const baseline = line.baseline / scale;
    const bottom = baseline + line.descent / scale;
    const top = bottom - line.rowHeight / scale;
    const size = ocrTextSize(line.rowHeight / scale);
    for (const w of line.words) {
      const text = w.text.trim();
      if (!text) continue;
      if (w.confidence < MIN_NOISE_CONFIDENCE && !/[\p{L}\p{N}]/u.test(text)) continue;
      fragments.push({ text, x0: w.bbox.x0 / scale, x1: w.bbox.x1 / scale, top, bottom, baseline, size, font: 'ocr', dir: 0 });
    }
  }
  return fragments;
}

/** The font size, in points, of an OCR'd line whose row is `rowHeight` points tall. */
export function ocrTextSize(rowHeight: number): number {
  return Math.max(1, rowHeight / 1.15);
}
