/**
 * Scans made from born-digital pages, for the fidelity bench's `--scanned` mode: each page is
 * rendered with PDFium (the engine quarry ships) to a grey picture at {@link SCAN_DPI}, the
 * resolution the hosted API and quarry's hi_res OCR render at, and written twice: as a PNG (the
 * image partitioner's path) and as a one-page image-only PDF made with pdf-lib (the OCR path of a
 * PDF page). Nothing of the text layer survives, so every word must come from OCR.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { MAX_OCR_PIXELS } from '../../src/partition/limits.js';
import { PdfiumDocument } from '../../src/partition/formats/pdf/pdfium/document.js';

/** Resolution of the rendered pages. */
export const SCAN_DPI = 200;

/** One rendered page: where its PNG and image-only PDF were written. */
export interface ScannedPage {
  doc: string;
  /** 1-based page of the source PDF. */
  page: number;
  png: string;
  pdf: string;
}

/**
 * Renders `pages` (1-based) of `source` into `dir` as `<doc>-p<page>.png` and `<doc>-p<page>.pdf`
 * (the PDF page has the source page's size in points, the picture drawn over all of it).
 */
export async function scanPages(source: string, pages: readonly number[], dir: string): Promise<ScannedPage[]> {
  const doc = path.basename(source, '.pdf');
  const pdfium = await PdfiumDocument.open(new Uint8Array(await readFile(source)));
  const out: ScannedPage[] = [];
  try {
    for (const page of pages) {
      const bitmap = await pdfium.render(page, SCAN_DPI, MAX_OCR_PIXELS);
      const grey = new Uint8Array(bitmap.width * bitmap.height);
      for (let i = 0, j = 0; i < grey.length; i++, j += 4) {
        grey[i] = (bitmap.rgba[j]! * 299 + bitmap.rgba[j + 1]! * 587 + bitmap.rgba[j + 2]! * 114) / 1000;
      }
      const png = await sharp(grey, { raw: { width: bitmap.width, height: bitmap.height, channels: 1 } })
        .png()
        .toBuffer();
      const base = path.join(dir, `${doc}-p${page}`);
      await writeFile(`${base}.png`, png);
      const pdf = await PDFDocument.create();
      const image = await pdf.embedPng(png);
      const width = (bitmap.width * 72) / SCAN_DPI;
      const height = (bitmap.height * 72) / SCAN_DPI;
      pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
      await writeFile(`${base}.pdf`, await pdf.save());
      out.push({ doc, page, png: `${base}.png`, pdf: `${base}.pdf` });
    }
  } finally {
    pdfium.close();
  }
  return out;
}
