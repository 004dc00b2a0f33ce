/**
 * The resolution a page is rendered at, bounded by a pixel count. Shared by the pdf.js and PDFium
 * renderers; this file must not import `@quarry/core` (PDFium's page worker thread loads its
 * neighbours).
 */

/**
 * `dpi`, or less so that a page of `width` x `height` points has at most `maxPixels` pixels (a
 * 5000-pt page at 200 dpi would be 193 M pixels, 770 MB of RGBA before any copy).
 */
export function boundedDpi(width: number, height: number, dpi: number, maxPixels: number): number {
  const points = Math.max(1, width) * Math.max(1, height);
  return Math.min(dpi, 72 * Math.sqrt(maxPixels / points));
}
