import type { OcrLine, OcrResult } from '../../ocr.js';
import type { Box, TextFragment } from './layout-types.js';

/** The font of OCR'd words read as bold: the layout takes a short line in it, over body text in `ocr`, for a heading. */
export const OCR_BOLD_FONT = 'ocr-bold';

/**
 * The font of OCR'd words that are specks of a picture, a logo or a chart rather than text (read
 * with low confidence, hardly a letter): the layout never takes a run of them for a heading.
 */
export const OCR_SPECK_FONT = 'ocr-speck';

// OCR words below this confidence that contain no letter or digit are speckles.
const MIN_NOISE_CONFIDENCE = 40;
// Words below this confidence with fewer than four letters are specks of a graphic ("moi:", "FE" in a logo).
const MIN_WORD_CONFIDENCE = 75;

/** Whether an OCR'd word is a speck of a picture, a logo or a chart (read with low confidence, hardly a letter) rather than text. */
export function isOcrSpeck(text: string, confidence: number): boolean {
  return confidence < MIN_WORD_CONFIDENCE && (text.match(/\p{L}/gu)?.length ?? 0) < 4;
}

/**
 * OCR words -> fragments in page points. Every word of a line takes the line's baseline and row
 * height, so a line's words share one extent and the font size does not depend on which letters a
 * line happens to contain. The words of the lines in `bold` (`ocr-weight.ts`) are in the font
 * {@link OCR_BOLD_FONT}, the others in `ocr`; specks of a graphic in {@link OCR_SPECK_FONT}.
 */
export function fragmentsFromOcr(ocr: OcrResult, scale: number, bold: ReadonlySet<OcrLine> = new Set()): TextFragment[] {
  const fragments: TextFragment[] = [];
  for (const line of ocr.lines) {
    const { top, bottom, baseline } = ocrLineBand(line, scale);
    const size = ocrTextSize(line.rowHeight / scale);
    for (const w of line.words) {
      const text = w.text.trim();
      if (!text) continue;
      if (w.confidence < MIN_NOISE_CONFIDENCE && !/[\p{L}\p{N}]/u.test(text)) continue;
      const font = isOcrSpeck(text, w.confidence) ? OCR_SPECK_FONT : bold.has(line) ? OCR_BOLD_FONT : 'ocr';
      fragments.push({ text, x0: w.bbox.x0 / scale, x1: w.bbox.x1 / scale, top, bottom, baseline, size, font, dir: 0 });
    }
  }
  return fragments;
}

/** The band (points) an OCR'd line's words take in the layout: its row height down to its descenders. */
export function ocrLineBand(line: OcrLine, scale: number): { top: number; bottom: number; baseline: number } {
  const baseline = line.baseline / scale;
  const bottom = baseline + line.descent / scale;
  return { top: bottom - line.rowHeight / scale, bottom, baseline };
}

/**
 * The text size, in points, the table readings of OCR'd words take for a line whose row is
 * `rowHeight` points tall (their thresholds were tuned with it; see {@link ocrFontSize}).
 */
export function ocrTextSize(rowHeight: number): number {
  return Math.max(1, rowHeight / 1.15);
}

/**
 * The font size, in points, of an OCR'd line whose row (ascenders to descenders) is `rowHeight`
 * points tall, as the layout takes it: 1.03-1.11 times the row on 200 dpi scans of born-digital
 * pages whose sizes are known. With {@link ocrTextSize}'s smaller size, the layout took each line of
 * a double-spaced page for a paragraph.
 */
export function ocrFontSize(rowHeight: number): number {
  return Math.max(1, rowHeight * 1.08);
}

// Words of a line closer than this many font sizes are one run of text; wider gaps (table cells,
// column gutters) stay for the layout to judge, as the gaps between a born-digital PDF's text runs do.
const RUN_GAP_EM = 0.8;

/**
 * OCR word fragments joined into runs of words, as a born-digital PDF draws its text: the words of
 * one OCR line, left to right, whose gaps are word spaces and which no cell wall of `rulings`
 * separates, each run with its font size ({@link ocrFontSize}) and the font of its words (a speck's
 * only when every word is one). Fed word by
 * word, the PDF layout's column-gutter test cuts justified lines at every word space that happens to
 * fall in line with a table's column gap elsewhere on the page.
 */
export function ocrWordRuns(fragments: readonly TextFragment[], rulings: readonly Box[]): TextFragment[] {
  const walls = rulings.filter((r) => r.x0 === r.x1 && r.y1 > r.y0);
  const out: TextFragment[] = [];
  for (const word of fragments) {
    const f = { ...word, size: ocrFontSize(word.bottom - word.top) };
    const run = out[out.length - 1];
    const middle = (f.top + f.bottom) / 2;
    const joins =
      run !== undefined &&
      run.baseline === f.baseline &&
      run.top === f.top &&
      f.x0 >= run.x1 - 0.1 * f.size &&
      f.x0 - run.x1 <= RUN_GAP_EM * f.size &&
      !walls.some((w) => w.y0 <= middle && w.y1 >= middle && w.x0 >= run.x1 - 0.1 * f.size && w.x0 <= f.x0 + 0.1 * f.size);
    if (joins) out[out.length - 1] = { ...run, text: `${run.text} ${f.text}`, x1: f.x1, font: run.font === OCR_SPECK_FONT ? f.font : run.font };
    else out.push(f);
  }
  return out;
}
