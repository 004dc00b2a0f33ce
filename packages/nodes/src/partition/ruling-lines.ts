/**
 * Removes ruling lines (table grids, form boxes, underlines) from a page image before OCR.
 *
 * Tesseract's layout analysis takes a line drawn close to text for part of a picture and drops the
 * text with it: in a ruled table, whole rows whose text sits near a grid line come back empty
 * (the corpus table image lost three of its four body rows). Painting the lines white first
 * leaves the text alone on a plain background, which Tesseract reads. Table structure does not
 * suffer: quarry finds tables from the OCR'd words' alignment, not from the grid.
 *
 * A ruling line is a run of dark pixels at least an eighth of the image long (and 40 pixels) in
 * one direction, in a band at most {@link maxLineThickness} pixels thick across it. Letter strokes
 * are short, and the strokes of letters big enough to be that long are thicker than a rule; dark
 * areas (white text on black) are thicker still, so neither is touched.
 */

import { luma } from './luma.js';

/** Pixels darker than this (luma, 0-255) may belong to a line. */
const DARK = 160;
/** Anti-aliasing next to an erased line, darker than this, is erased with it. */
const FRINGE = 224;
const MIN_RUN = 40;

/** The thickest band taken for a ruling line in an image of this size (at least 4 pixels). */
export function maxLineThickness(width: number, height: number): number {
  return Math.max(4, Math.round(Math.min(width, height) / 200));
}

/**
 * Paints the ruling lines of an image white, in place (see the module comment).
 *
 * @param pixels the image, row by row: one luma byte per pixel (`channels` 1) or RGBA (`channels` 4,
 *   alpha left as it is).
 * @returns the number of pixels painted.
 */
export function eraseRulingLines(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: 1 | 4): number {
  const n = width * height;
  if (pixels.length < n * channels) throw new RangeError(`eraseRulingLines: ${pixels.length} bytes cannot hold ${width}x${height}x${channels}`);
  const grey = new Uint8Array(n);
  if (channels === 1) grey.set(pixels.subarray(0, n));
  else for (let i = 0, j = 0; i < n; i++, j += 4) grey[i] = luma(pixels[j]!, pixels[j + 1]!, pixels[j + 2]!);
  const maxThick = maxLineThickness(width, height);
  const horizontal = thin(longRuns(grey, width, height, true), width, height, false, maxThick);
  const vertical = thin(longRuns(grey, width, height, false), width, height, true, maxThick);
  let painted = 0;
  const paint = (i: number): void => {
    if (channels === 1) pixels[i] = 255;
    else pixels.fill(255, 4 * i, 4 * i + 3);
    grey[i] = 255;
    painted++;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (horizontal[i] === 0 && vertical[i] === 0) continue;
      paint(i);
      // The anti-aliased fringe across the line.
      if (horizontal[i] === 1) {
        if (y > 0 && horizontal[i - width] === 0 && grey[i - width]! < FRINGE) paint(i - width);
        if (y + 1 < height && horizontal[i + width] === 0 && grey[i + width]! < FRINGE) paint(i + width);
      }
      if (vertical[i] === 1) {
        if (x > 0 && vertical[i - 1] === 0 && grey[i - 1]! < FRINGE) paint(i - 1);
        if (x + 1 < width && vertical[i + 1] === 0 && grey[i + 1]! < FRINGE) paint(i + 1);
      }
    }
  }
  return painted;
}

// 1 where a pixel lies on a run of dark pixels along rows (`alongRows`) or columns that is long
// enough to be a rule.
function longRuns(luma: Uint8Array, width: number, height: number, alongRows: boolean): Uint8Array {
  const marks = new Uint8Array(width * height);
  const lines = alongRows ? height : width;
  const length = alongRows ? width : height;
  const step = alongRows ? 1 : width;
  const minRun = Math.max(MIN_RUN, Math.round(length / 8));
  for (let l = 0; l < lines; l++) {
    const base = alongRows ? l * width : l;
    let k = 0;
    while (k < length) {
      if (luma[base + k * step]! >= DARK) {
        k++;
        continue;
      }
      let end = k;
      while (end < length && luma[base + end * step]! < DARK) end++;
      if (end - k >= minRun) for (let m = k; m < end; m++) marks[base + m * step] = 1;
      k = end;
    }
  }
  return marks;
}

// Clears the marks that form bands thicker than `maxThick` across their direction: across rows
// (`acrossRows`, for vertical runs) or across columns (for horizontal ones).
function thin(marks: Uint8Array, width: number, height: number, acrossRows: boolean, maxThick: number): Uint8Array {
  const lines = acrossRows ? height : width;
  const length = acrossRows ? width : height;
  const step = acrossRows ? 1 : width;
  for (let l = 0; l < lines; l++) {
    const base = acrossRows ? l * width : l;
    let k = 0;
    while (k < length) {
      if (marks[base + k * step] === 0) {
        k++;
        continue;
      }
      let end = k;
      while (end < length && marks[base + end * step] === 1) end++;
      if (end - k > maxThick) for (let m = k; m < end; m++) marks[base + m * step] = 0;
      k = end;
    }
  }
  return marks;
}
