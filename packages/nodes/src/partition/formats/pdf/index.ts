/**
 * The PDF partitioner.
 *
 * - `fast`: the text layer, laid out into lines and blocks in reading order (columns read one
 *   after the other), classified into Title, NarrativeText, ListItem, Header, Footer, PageNumber,
 *   UncategorizedText, ... Long documents are read on two threads.
 * - `hi_res` (also `auto`, `vlm` and `ocr_only` here): everything of fast, plus OCR of pages without
 *   a usable text layer (`ocr_only`: of every page), Image elements for embedded images, Table
 *   elements found from the geometry of the text, and region images for the types listed in
 *   `extract_image_block_types`.
 *
 * Coordinates: see `elements.ts` (points for fast, 200 dpi pixels for hi_res, both `PixelSpace`).
 */
import type { Element } from '@quarry/core';
import { QuarryError, quarryError } from '@quarry/core/errors';
import type { FormatPartitioner, FormatPartitionOptions } from '../../types.js';
import { elementsFromLayouts } from './elements.js';
import { extractLayouts } from './extract-pages.js';
import { DEFAULT_PDF_ENGINE } from './engine.js';
import { readOutline } from './outline.js';
import { partitionPdfHiRes } from './hi-res.js';
import { limitError, partitionLimits } from '../../limits.js';
import { PdfOpenError } from './pdfjs/load.js';

/** Partitions PDF documents (see the module comment for the strategies). */
export const pdfPartitioner: FormatPartitioner = {
  async partition(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[]> {
    try {
      if (options.strategy === 'fast') return await partitionPdfFast(bytes, options);
      return await partitionPdfHiRes(bytes, options);
    } catch (e) {
      throw toQuarryError(options.signal.aborted ? new PdfOpenError('aborted', 'partitioning was cancelled', { cause: e }) : e, options.filename);
    }
  },
};

async function partitionPdfFast(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[]> {
  const layouts = await extractLayouts(bytes, {
    signal: options.signal,
    logger: options.logger,
    maxPages: partitionLimits().maxPdfPages,
    ...(options.pdf_engine ? { engine: options.pdf_engine } : {}),
  });
  if (layouts.every((l) => !l || l.blocks.length === 0) && layouts.length > 0) {
    options.logger.info('pdf: no text layer; the hi_res strategy would OCR the pages', { filename: options.filename });
  }
  const outline = await readOutline(bytes, options.pdf_engine ?? DEFAULT_PDF_ENGINE);
  return elementsFromLayouts(layouts, {
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
