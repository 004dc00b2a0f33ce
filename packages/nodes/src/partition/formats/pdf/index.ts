/**
 * The PDF partitioner.
 *
 * - `fast`: the text layer, laid out into lines and blocks in reading order (columns read one
 *   after the other), classified into Title, NarrativeText, ListItem, Header, Footer, PageNumber,
 *   UncategorizedText, ... Long documents are read on two threads.
 * - `hi_res` (also `vlm` and `ocr_only` here): everything of fast, plus OCR of pages without
 *   a usable text layer (`ocr_only`: of every page), Image elements for embedded images, Table
 *   elements found from the geometry of the text, and region images for the types listed in
 *   `extract_image_block_types`.
 * - `auto` (the default), as the Python library `unstructured` routes it: `fast` when every page
 *   has a usable text layer or is blank or a figure, `hi_res` when a page needs OCR (which hi_res runs on those pages
 *   only), when `infer_table_structure` asks for tables' HTML, or when `extract_image_block_types`
 *   asks for region images.
 *
 * Coordinates: see `elements.ts` (points for fast, 200 dpi pixels for hi_res, both `PixelSpace`).
 */
import type { Element } from '@quarry/core';
import { QuarryError, quarryError } from '@quarry/core/errors';
import type { FormatPartitioner, FormatPartitionOptions } from '../../types.js';
import { elementsFromLayouts } from './elements.js';
import { extractDocument, type DocumentLayouts } from './extract-pages.js';
import { MAX_BAD_CHAR_SHARE, MIN_SCAN_COVER, MIN_TEXT_CHARS } from './scan-thresholds.js';
import { PdfiumDocument } from './pdfium/document.js';
import { limitError, partitionLimits } from '../../limits.js';
import { PdfOpenError } from './pdfjs/load.js';

/** Partitions PDF documents (see the module comment for the strategies). */
export const pdfPartitioner: FormatPartitioner = {
  async partition(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[]> {
    try {
      if (options.strategy === 'fast') return await partitionPdfFast(bytes, options);
      if (options.strategy === 'auto') return (await partitionPdfAuto(bytes, options)) ?? (await partitionPdfHiRes(bytes, options));
      return await partitionPdfHiRes(bytes, options);
    } catch (e) {
      throw toQuarryError(options.signal.aborted ? new PdfOpenError('aborted', 'partitioning was cancelled', { cause: e }) : e, options.filename);
    }
  },
};

// hi_res (OCR, pdf.js, tables from renders) loads when a document needs it: auto reads a PDF with a
// text layer without it.
async function partitionPdfHiRes(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[]> {
  const hiRes = await import('./hi-res.js');
  return hiRes.partitionPdfHiRes(bytes, options);
}

/**
 * The `auto` strategy's fast path: the text layers read as `fast` reads them, or `undefined` when
 * the document needs hi_res (a page without a usable text layer, tables' HTML, region images).
 * Reading the text first costs a fraction of a hi_res pass, so a scanned document pays little more.
 */
async function partitionPdfAuto(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[] | undefined> {
  if (options.infer_table_structure || options.extract_image_block_types.length > 0) return undefined;
  let document: DocumentLayouts;
  try {
    document = await readDocument(bytes, options);
  } catch (e) {
    // pdf.js repairs some files the text engine cannot open: hi_res gets its chance.
    if (e instanceof PdfOpenError && e.kind === 'unreadable') return undefined;
    throw e;
  }
  const pages = document.pages.filter((l) => l !== undefined);
  if (pages.some((l) => l.badChars / Math.max(1, l.textChars + l.badChars) > MAX_BAD_CHAR_SHARE)) return undefined;
  // A page with little text is blank, a figure or a scan: a scan (little text over a large
  // picture, hi_res's test) needs OCR.
  const sparse = pages.filter((l) => l.textChars < MIN_TEXT_CHARS).map((l) => l.pageNumber);
  if (sparse.length > 0 && (await anyScan(bytes, sparse, options))) {
    // Known now, before hi_res loads pdf.js: a partition pool frees its small lane on it.
    options.onHeavyWork?.();
    return undefined;
  }
  return elementsOfFastLayouts(document, options);
}

/** Whether one of `pageNumbers` has a picture over {@link MIN_SCAN_COVER} of its area (pdf.js engine: assumed). */
async function anyScan(bytes: Uint8Array, pageNumbers: readonly number[], options: FormatPartitionOptions): Promise<boolean> {
  if (options.pdf_engine === 'pdfjs') return true;
  const doc = await PdfiumDocument.open(bytes);
  try {
    return pageNumbers.some((p) => doc.pictureCover(p) >= MIN_SCAN_COVER);
  } finally {
    doc.close();
  }
}

async function partitionPdfFast(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[]> {
  const document = await readDocument(bytes, options);
  const layouts = document.pages;
  if (layouts.every((l) => !l || l.blocks.length === 0) && layouts.length > 0) {
    options.logger.info('pdf: no text layer; the hi_res strategy would OCR the pages', { filename: options.filename });
  }
  return elementsOfFastLayouts(document, options);
}

function readDocument(bytes: Uint8Array, options: FormatPartitionOptions): Promise<DocumentLayouts> {
  return extractDocument(bytes, {
    signal: options.signal,
    logger: options.logger,
    maxPages: partitionLimits().maxPdfPages,
    ...(options.pdf_engine ? { engine: options.pdf_engine } : {}),
  });
}

function elementsOfFastLayouts({ pages, outline }: DocumentLayouts, options: FormatPartitionOptions): Element[] {
  return elementsFromLayouts(pages, {
    includePageBreaks: options.include_page_breaks,
    coordinates: options.coordinates,
    dpi: 72,
    inferTableStructure: false,
    outline,
  }).map((b) => b.element);
}

/**
 * Maps pdf.js failures onto coded errors: `PDF_PASSWORD_REQUIRED` for a file that needs a user
 * password, `DOCUMENT_TOO_COMPLEX` for one of more pages than `QUARRY_MAX_PDF_PAGES`,
 * `FILE_UNREADABLE` for one pdf.js cannot parse, `JOB_ABORTED` when the signal aborted.
 */
export function toQuarryError(e: unknown, filename: string): unknown {
  if (e instanceof QuarryError) return e;
  if (!(e instanceof PdfOpenError)) return e;
  const details = { filename };
  switch (e.kind) {
    case 'password':
      return new QuarryError('PDF_PASSWORD_REQUIRED', `${filename}: ${e.message}`, { cause: e, details });
    case 'aborted':
      return quarryError('JOB_ABORTED', `${filename}: ${e.message}`, { cause: e, details });
    case 'too-many-pages':
      return limitError('DOCUMENT_TOO_COMPLEX', 'maxPdfPages', filename, e.pages ?? 0);
    default:
      return quarryError('FILE_UNREADABLE', `${filename}: ${e.message}`, { cause: e, details });
  }
}
