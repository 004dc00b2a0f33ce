/**
 * The document outline (bookmarks) for heading detection, read with the strategy's engine. A
 * document whose outline cannot be read is partitioned without one.
 */
import type { PdfEngine } from './engine.js';
import type { OutlineEntry } from './headings.js';
import { withPdf } from './pdfjs/load.js';
import { readPdfjsOutline } from './pdfjs/outline.js';
import { PdfiumDocument } from './pdfium/document.js';

/** Reads the outline of a PDF with `engine`; empty when it has none or it cannot be read. */
export async function readOutline(bytes: Uint8Array, engine: PdfEngine): Promise<OutlineEntry[]> {
  try {
    if (engine === 'pdfjs') return await withPdf(bytes, {}, readPdfjsOutline);
    const doc = await PdfiumDocument.open(bytes);
    try {
      return doc.outline();
    } finally {
      doc.close();
    }
  } catch {
    return [];
  }
}
