/**
 * The grey value of a colour pixel, the one conversion every page picture quarry thresholds or
 * hands to OCR goes through.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */

/**
 * ITU-R BT.601 luma of an RGB pixel, 0-255, in integer weights (as Tesseract and most OCR tools
 * grey a picture). Not rounded: stored in a `Uint8Array` it is truncated.
 */
export function luma(r: number, g: number, b: number): number {
  return (r * 299 + g * 587 + b * 114) / 1000;
}

/** Grey pixels darker than this (luma) are ink, where a page image is read for marks of the print (bold strokes, bullets). */
export const INK = 128;
