/**
 * Scans made from born-digital PDF pages, to measure scanned-document quality on documents whose
 * tables are known (`quarry eval --scanned`, the fidelity bench): each page is rendered with PDFium
 * (the engine quarry ships) to a grey picture and encoded as an 8-bit grey PNG (pngjs). Nothing of
 * the text layer survives, so every word partitioned from it must come from OCR.
 */
import type { PdfiumDocument } from '../partition/formats/pdf/pdfium/document.js';
import { luma } from '../partition/luma.js';

/** The resolution pages are scanned at by default: the one quarry's hi_res and the hosted API OCR at. */
export const SCAN_DPI = 200;

/** One scanned page. */
export interface ScannedPage {
  /** 1-based page of the source PDF. */
  page: number;
  /** The grey PNG. */
  png: Uint8Array;
  /** The page's size in points, to lay the picture over a page of the same size. */
  widthPoints: number;
  heightPoints: number;
}

/**
 * Renders `pages` (1-based) of a PDF as grey scans at `dpi`.
 *
 * @throws FILE_UNREADABLE or PDF_PASSWORD_REQUIRED when the PDF cannot be opened, as partitioning
 * would; a page past the end fails with a RangeError naming it.
 */
export async function scanPdfPages(bytes: Uint8Array, pages: readonly number[], filename: string, dpi = SCAN_DPI): Promise<ScannedPage[]> {
  // PDFium and the PNG encoder load when pages are scanned, not with the package.
  const [{ PNG }, { MAX_OCR_PIXELS }, { PdfiumDocument }, { toQuarryError }] = await Promise.all([
    import('pngjs'),
    import('../partition/limits.js'),
    import('../partition/formats/pdf/pdfium/document.js'),
    import('../partition/formats/pdf/index.js'),
  ]);
  let doc: PdfiumDocument;
  try {
    doc = await PdfiumDocument.open(Buffer.isBuffer(bytes) ? new Uint8Array(bytes) : bytes);
  } catch (e) {
    throw toQuarryError(e, filename);
  }
  const out: ScannedPage[] = [];
  try {
    for (const page of pages) {
      if (!Number.isInteger(page) || page < 1 || page > doc.numPages) throw new RangeError(`${filename} has no page ${page} (${doc.numPages} pages)`);
      const bitmap = await doc.render(page, dpi, MAX_OCR_PIXELS);
      const png = new PNG({ width: bitmap.width, height: bitmap.height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
      const grey = Buffer.alloc(bitmap.width * bitmap.height);
      for (let i = 0, j = 0; i < grey.length; i++, j += 4) {
        // As the OCR path greys a page.
        grey[i] = luma(bitmap.rgba[j]!, bitmap.rgba[j + 1]!, bitmap.rgba[j + 2]!);
      }
      png.data = grey;
      out.push({
        page,
        png: new Uint8Array(PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false })),
        widthPoints: (bitmap.width * 72) / dpi,
        heightPoints: (bitmap.height * 72) / dpi,
      });
    }
  } finally {
    doc.close();
  }
  return out;
}
