/**
 * Rendering a PDF page to pixels with PDFium (FPDF_RenderPageBitmap): page pictures without
 * `@napi-rs/canvas`, which the pdf.js renderer needs.
 *
 * This file must not import `@quarry/core`: the page worker thread loads `document.ts`, which uses it.
 */
import { boundedDpi } from '../render-size.js';
import type { Pdfium } from './module.js';

/** A rendered page: 8-bit RGBA, opaque, rows top to bottom. */
export interface PdfiumBitmap {
  rgba: Uint8Array;
  width: number;
  height: number;
}

// FPDF_ANNOT: draw the page's annotations (form fields, stamps) as a viewer shows them.
const FPDF_ANNOT = 0x01;
const WHITE = 0xffffffff;

/**
 * Renders page `index` (0-based) of an open document at `dpi`, or less when the page would have
 * more than `maxPixels` pixels or a side longer than `maxSide`, on white, with its `/Rotate`.
 */
export function renderPdfiumPage(pdfium: Pdfium, doc: number, index: number, dpi: number, maxPixels: number, maxSide = Infinity): PdfiumBitmap {
  const { x } = pdfium;
  const page = x.FPDF_LoadPage(doc, index);
  if (!page) throw new Error(`PDFium could not load page ${index + 1}`);
  let bitmap = 0;
  try {
    // The page's size with its rotation applied.
    const w = x.FPDF_GetPageWidthF(page);
    const h = x.FPDF_GetPageHeightF(page);
    const scale = Math.min(boundedDpi(w, h, dpi, maxPixels), (maxSide * 72) / Math.max(w, h, 1)) / 72;
    const width = Math.max(1, Math.round(w * scale));
    const height = Math.max(1, Math.round(h * scale));
    bitmap = x.FPDFBitmap_Create(width, height, 0);
    if (!bitmap) throw new Error(`PDFium could not allocate a ${width} x ${height} bitmap`);
    x.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, WHITE);
    x.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, FPDF_ANNOT);
    const stride = x.FPDFBitmap_GetStride(bitmap);
    const buffer = x.FPDFBitmap_GetBuffer(bitmap);
    // PDFium writes BGRx; swapped to RGBA row by row.
    const heap = pdfium.u8();
    const rgba = new Uint8Array(width * height * 4);
    for (let row = 0; row < height; row++) {
      let from = buffer + row * stride;
      let to = row * width * 4;
      for (let col = 0; col < width; col++, from += 4, to += 4) {
        rgba[to] = heap[from + 2]!;
        rgba[to + 1] = heap[from + 1]!;
        rgba[to + 2] = heap[from]!;
        rgba[to + 3] = 255;
      }
    }
    return { rgba, width, height };
  } finally {
    if (bitmap) x.FPDFBitmap_Destroy(bitmap);
    x.FPDF_ClosePage(page);
  }
}
