/**
 * Page layouts read with PDFium, for the main thread and the page worker alike. A page PDFium
 * cannot load is read with pdf.js instead: pdf.js rebuilds a cross-reference table whose entries
 * point at the wrong objects, where PDFium gives up on the page.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */
import type { BlockTextOptions } from '../classify.js';
import type { OutlineEntry } from '../headings.js';
import type { PageLayout, PageText } from '../layout-types.js';
import { openPdf, type PdfHandle } from '../pdfjs/load.js';
import { extractPageLayout, layoutPageText } from '../page-layout.js';
import { PdfiumDocument } from './document.js';

/** An open document that lays out one page at a time. */
export interface PdfiumPages {
  numPages: number;
  /** Lays out and classifies page `pageNumber` (1-based), as far as the options allow. */
  layout(pageNumber: number): Promise<PageLayout>;
  /** The document outline (see {@link PdfiumDocument.outline}). */
  outline(): Promise<OutlineEntry[]>;
  /** Closes the document (and pdf.js's copy, if a page needed it). */
  close(): Promise<void>;
}

/** Options of {@link openPdfiumPages}. */
export interface PdfiumPagesOptions extends BlockTextOptions {
  /** A document of more pages fails with kind `too-many-pages` before any page is read. */
  maxPages?: number;
}

const RTL_RE = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
// Those scripts start at U+0591 (Hebrew): text with no code unit from there on, most text, is told by a plain range.
const MAYBE_RTL_RE = /[\u0591-\uffff]/;

/**
 * Whether a page has right-to-left text. PDFium gives its characters in drawing order, which for
 * Arabic and Hebrew is backwards; pdf.js puts them in logical order, so such a page is read with pdf.js.
 */
export function hasRightToLeft(text: PageText): boolean {
  return text.fragments.some((f) => MAYBE_RTL_RE.test(f.text) && RTL_RE.test(f.text));
}

/** Opens `bytes` with PDFium; fails like {@link PdfiumDocument.open}. */
export async function openPdfiumPages(bytes: Uint8Array, options: PdfiumPagesOptions = {}): Promise<PdfiumPages> {
  const doc = await PdfiumDocument.open(bytes, options);
  let fallback: Promise<PdfHandle> | undefined;
  return {
    numPages: doc.numPages,
    async layout(pageNumber) {
      try {
        const text = await doc.pageText(pageNumber);
        if (!hasRightToLeft(text)) return layoutPageText(pageNumber, text, options);
        fallback ??= openPdf(bytes);
        return extractPageLayout((await fallback).doc, pageNumber, options, text);
      } catch (e) {
        fallback ??= openPdf(bytes);
        const handle = await fallback.catch(() => {
          throw e;
        });
        return extractPageLayout(handle.doc, pageNumber, options);
      }
    },
    async outline() {
      return doc.outline();
    },
    async close() {
      doc.close();
      if (fallback) await (await fallback.catch(() => undefined))?.close();
    },
  };
}
