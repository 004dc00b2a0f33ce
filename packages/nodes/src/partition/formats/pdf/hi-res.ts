/**
 * The hi_res PDF strategy: the fast strategy's text layout, plus OCR of pages whose text layer is
 * missing or broken, embedded images as Image elements, tables found from the text geometry and the
 * ruling lines (an OCR'd page's as an image's are, `image/ocr-tables.ts`), and
 * PNG crops for the element types in `extract_image_block_types`.
 *
 * Pages are read in order on this thread; recognitions run on the OCR worker threads, up to one per
 * worker in flight, while the following pages are read.
 */
import type { Element, ElementType } from '@quarry/core';
import { partitionLimits } from '../../limits.js';
import { blockTypes } from '../../block-types.js';
import type { FormatPartitionOptions } from '../../types.js';
import { requireOptional } from '../../../optional-dependency.js';
import { MAX_OCR_WORKERS, OCR_PACKAGES, ocrImage } from '../../ocr.js';
import { OcrWarnings } from '../../ocr-warnings.js';
import { boldLines } from '../../ocr-weight.js';
import { markBullets } from '../../ocr-bullets.js';
import { elementsFromLayouts, type BuiltElement } from './elements.js';
import type { Box, PageLayout, TextBlock } from './layout-types.js';
import { loadPdfjs, PdfOpenError, withPdf, type PdfDocument, type PdfPage } from './pdfjs/load.js';
import { findPageGraphics, type PageGraphics } from './pdfjs/images.js';
import { classifyPageBlocks, layoutPageText, readPageText, type PageText } from './page-layout.js';
import { cropPng, releaseRendered, renderPage, RENDER_DPI, toGreyPnm } from './pdfjs/render.js';
import { findTables } from './tables.js';
import { DEFAULT_PDF_ENGINE } from './engine.js';
import { PdfiumDocument } from './pdfium/document.js';
import { withFontsOf } from './pdfium/font-transfer.js';
import { hasRightToLeft } from './pdfium/pages.js';
import { readPdfjsOutline } from './pdfjs/outline.js';
import { orderBlocks } from './reading-order.js';
import { fragmentsFromOcr, ocrWordRuns } from './ocr-fragments.js';
import { splitAtWalls } from './ocr-wall-split.js';
import { findOcrTables, foundTables } from '../image/ocr-tables.js';
import { MAX_BAD_CHAR_SHARE, MIN_SCAN_COVER, MIN_TEXT_CHARS } from './scan-thresholds.js';

// An image covering this share of the page, on a page whose text comes from the text layer of a
// scan or from OCR, is the scan itself, not a figure.
const PAGE_COVER_SHARE = 0.75;

/** Partitions a PDF with the hi_res strategy (see the module comment). */
export async function partitionPdfHiRes(bytes: Uint8Array, options: FormatPartitionOptions): Promise<Element[]> {
  const { signal, logger } = options;
  const pdfjs = await loadPdfjs();
  return withPdf(bytes, { signal, maxPages: partitionLimits().maxPdfPages }, async (doc) => {
    // The text layer comes from the fast strategy's engine, which also knows the fonts' weights;
    // pdf.js (which renders and finds the images) reads a page PDFium cannot.
    const pdfium = (options.pdf_engine ?? DEFAULT_PDF_ENGINE) === 'pdfium' ? await PdfiumDocument.open(bytes).catch(() => undefined) : undefined;
    const outline = pdfium ? pdfium.outline() : await readPdfjsOutline(doc).catch(() => []);
    const n = doc.numPages;
    const layouts: (PageLayout | undefined)[] = new Array<PageLayout | undefined>(n).fill(undefined);
    const inFlight = new Set<Promise<void>>();
    const failures: number[] = [];
    const warnings = new OcrWarnings();
    try {
      for (let p = 1; p <= n; p++) {
        signal.throwIfAborted();
        if (options.pages && !options.pages.has(p)) continue;
        let page: PdfPage;
        let text: PageText;
        let images: Box[];
        try {
          page = await doc.getPage(p);
          const fromPdfium = await pdfium?.pageText(p).catch(() => undefined);
          if (fromPdfium && !hasRightToLeft(fromPdfium)) text = fromPdfium;
          else text = fromPdfium ? withFontsOf(await readPageText(page), fromPdfium) : await readPageText(page);
          const graphics = await findPageGraphics(page, pdfjs).catch((e: unknown): PageGraphics => {
            logger.debug('pdf: images of a page could not be listed', { page: p, reason: e instanceof Error ? e.message : String(e) });
            return { images: [], rulings: [] };
          });
          images = graphics.images;
          text.rulings = graphics.rulings;
        } catch (e) {
          if (signal.aborted) throw e;
          failures.push(p);
          logger.warn('pdf: a page could not be read', { page: p, reason: e instanceof Error ? e.message : String(e) });
          continue;
        }
        if (needsOcr(text, images, options.strategy === 'ocr_only')) {
          // Rendering and OCR take seconds a page.
          options.onHeavyWork?.();
          while (inFlight.size >= MAX_OCR_WORKERS) await Promise.race(inFlight);
          // Rendering and reading the page: one message names every package that needs.
          await requireOptional(['@napi-rs/canvas', 'tesseract.js'], 'OCR of PDF pages', ['@napi-rs/canvas', ...OCR_PACKAGES]);
          const rendered = await renderPage(page, RENDER_DPI, signal);
          const { pnm, grey, rulings } = toGreyPnm(rendered);
          // The size only: the canvas is not kept while Tesseract reads the page.
          const { scale, width, height } = rendered;
          releaseRendered(rendered);
          page.cleanup();
          const job = ocrImage(pnm, { languages: options.ocr_languages, signal, logger, dpi: scale * 72 }).then((ocr) => {
            warnings.add(p, ocr.warnings);
            // A scan's table grid is in its picture, not in the drawing.
            const pageRulings = text.rulings?.length ? text.rulings : rulings;
            // A list's bullets misread as letters, and headings set apart by weight alone: the grey page tells.
            markBullets(ocr.lines, grey, width, height);
            const bold = boldLines(ocr.lines, grey, width, height);
            const fragments = ocrWordRuns(splitAtWalls(fragmentsFromOcr(ocr, scale, bold), pageRulings), pageRulings);
            // The tables of an OCR'd page come from its words as an image's do, whatever the container.
            const tables = findOcrTables(ocr, pageRulings, scale);
            layouts[p - 1] = withImages(layoutPageText(p, { ...text, fragments, rulings: pageRulings }, { findTables: foundTables(tables) }), images, true);
          });
          const tracked: Promise<void> = job.finally(() => inFlight.delete(tracked));
          // Handled here so a failure is not an unhandled rejection while later pages are read;
          // the awaits below still see it.
          tracked.catch(() => undefined);
          inFlight.add(tracked);
        } else {
          page.cleanup();
          layouts[p - 1] = withImages(layoutPageText(p, text, { findTables }), images, text.textChars >= MIN_TEXT_CHARS);
        }
      }
      await Promise.all(inFlight);
    } finally {
      // Let recognitions still running settle (they fail fast once the signal aborted).
      await Promise.allSettled(inFlight);
      pdfium?.close();
    }
    const wanted = options.pages ? [...options.pages].filter((p) => p >= 1 && p <= n).length : n;
    if (wanted > 0 && failures.length === wanted) throw new PdfOpenError('unreadable', 'no page of the PDF could be read');
    const built = elementsFromLayouts(layouts, {
      outline,
      includePageBreaks: options.include_page_breaks,
      coordinates: options.coordinates,
      dpi: RENDER_DPI,
      inferTableStructure: options.infer_table_structure,
    });
    await addRegionImages(doc, built, blockTypes(options.extract_image_block_types), signal);
    const elements = built.map((b) => b.element);
    warnings.stamp(elements);
    warnings.log(logger, options.filename);
    return elements;
  });
}

/** Whether a page's text must come from OCR rather than from its text layer. */
function needsOcr(text: PageText, images: readonly Box[], always: boolean): boolean {
  if (always) return true;
  const total = text.textChars + text.badChars;
  if (total > 0 && text.badChars / total > MAX_BAD_CHAR_SHARE) return true;
  if (text.textChars >= MIN_TEXT_CHARS) return false;
  const area = text.width * text.height;
  // Little or no text over a large picture: a scanned page.
  return images.some((b) => ((b.x1 - b.x0) * (b.y1 - b.y0)) / area >= MIN_SCAN_COVER);
}

/**
 * Adds Image blocks for embedded images and re-orders the page. A picture covering most of a page
 * whose text was read (OCR, or a scan's invisible text layer) is the page scan itself and is left out.
 */
function withImages(layout: PageLayout, images: readonly Box[], hasText: boolean): PageLayout {
  const area = layout.width * layout.height;
  const figures = images.filter((b) => !(hasText && ((b.x1 - b.x0) * (b.y1 - b.y0)) / area >= PAGE_COVER_SHARE));
  if (figures.length === 0) {
    classifyPageBlocks(layout);
    return layout;
  }
  const imageBlocks: TextBlock[] = figures.map((box) => ({ kind: 'image', text: '', box, lineCount: 0, size: 0, font: '' }));
  layout.blocks = orderBlocks([...layout.blocks, ...imageBlocks]);
  classifyPageBlocks(layout);
  return layout;
}

/** Renders each page that has elements of the wanted types and stores their regions as PNG base64. */
async function addRegionImages(doc: PdfDocument, built: BuiltElement[], types: ReadonlySet<ElementType>, signal: AbortSignal): Promise<void> {
  if (types.size === 0) return;
  const byPage = new Map<number, BuiltElement[]>();
  for (const b of built) {
    if (!b.block || !b.page || !types.has(b.element.type)) continue;
    const list = byPage.get(b.page.pageNumber);
    if (list) list.push(b);
    else byPage.set(b.page.pageNumber, [b]);
  }
  for (const [pageNumber, items] of byPage) {
    signal.throwIfAborted();
    const page = await doc.getPage(pageNumber);
    try {
      const rendered = await renderPage(page, RENDER_DPI, signal);
      for (const { element, block } of items) {
        const png = await cropPng(rendered, block!.box);
        element.metadata.image_base64 = Buffer.from(png).toString('base64');
        element.metadata.image_mime_type = 'image/png';
      }
    } finally {
      page.cleanup();
    }
  }
}
