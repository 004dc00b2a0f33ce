/**
 * Text layout of every page of a PDF, using a second thread for long documents.
 *
 * Both engines (PDFium, pdf.js) read on the calling thread (pdf.js through its "fake worker"), so
 * one document uses one core. For long documents the page worker thread (`page-worker-host.ts`)
 * opens its own copy and both threads claim pages from a shared counter, which balances uneven
 * pages, and a worker still starting up, without any planning. Results are put back in page order;
 * pages a failed worker had claimed are redone on the main thread.
 */
import type { Logger } from '@quarry/core';
import { hasSpareCore } from '../../spare-core.js';
import type { PageLayout } from './layout-types.js';
import type { OutlineEntry } from './headings.js';
import { DEFAULT_PDF_ENGINE, type PdfEngine } from './engine.js';
import { PdfOpenError, withPdf } from './pdfjs/load.js';
import { readPdfjsOutline } from './pdfjs/outline.js';
import { classifyPageBlocks, extractPageLayout } from './page-layout.js';
import { preparePageWorker, runPageJob } from './page-worker-host.js';
import { looksLong } from './pdfium/document.js';
import { compilePdfium } from './pdfium/module.js';
import { openPdfiumPages } from './pdfium/pages.js';

// Below this many pages a second thread does not pay for opening the document twice.
const MIN_PAGES_FOR_WORKER = 16;
// pdf.js settles its promises as microtasks, so the page loop alone never lets timers or I/O run:
// a cancel, a node timeout or a server's other requests would wait for the last page.
const YIELD_EVERY_MS = 50;

/** Options of {@link extractLayouts}. */
export interface ExtractLayoutsOptions {
  signal?: AbortSignal;
  logger?: Logger;
  /** Use the page worker thread: `true`/`false` to force; unset, by page count and {@link hasSpareCore}. */
  parallel?: boolean;
  /** A document of more pages fails with kind `too-many-pages` before any page is read. */
  maxPages?: number;
  /** The engine reading the text layer (default {@link DEFAULT_PDF_ENGINE}). */
  engine?: PdfEngine;
}

/** One open document, as the page loop sees it. */
interface PageSource {
  numPages: number;
  layout(pageNumber: number): Promise<PageLayout>;
  /** The document outline; empty when it has none or it cannot be read. */
  outline(): Promise<OutlineEntry[]>;
}

/** Every page's layout and the document outline, as {@link extractDocument} reads them. */
export interface DocumentLayouts {
  /** One entry per page, `undefined` for a page that could not be read. */
  pages: (PageLayout | undefined)[];
  /** The document outline (bookmarks), for heading levels; empty when it has none or it cannot be read. */
  outline: OutlineEntry[];
}

/**
 * Lays out every page. The result has one entry per page, `undefined` for a page that could not
 * be read (logged as a warning). Fails with kind `unreadable` when no page at all could be read.
 */
export async function extractLayouts(bytes: Uint8Array, options: ExtractLayoutsOptions = {}): Promise<(PageLayout | undefined)[]> {
  return (await read(bytes, options, false)).pages;
}

/**
 * Lays out every page as {@link extractLayouts} does, and reads the document outline from the same
 * open document once the pages are read, where resolving the bookmarks' target pages costs little.
 */
export function extractDocument(bytes: Uint8Array, options: ExtractLayoutsOptions = {}): Promise<DocumentLayouts> {
  return read(bytes, options, true);
}

async function read(bytes: Uint8Array, options: ExtractLayoutsOptions, withOutline: boolean): Promise<DocumentLayouts> {
  const { signal, maxPages } = options;
  if ((options.engine ?? DEFAULT_PDF_ENGINE) === 'pdfjs') {
    return withPdf(bytes, { signal, maxPages }, (doc) =>
      layoutAll(
        bytes,
        { numPages: doc.numPages, layout: (p) => extractPageLayout(doc, p), outline: () => readPdfjsOutline(doc).catch(() => []) },
        'pdfjs',
        options,
        withOutline,
      ),
    );
  }
  if (signal?.aborted) throw new PdfOpenError('aborted', 'aborted before the PDF was opened', { cause: signal.reason });
  // The page worker of a document that looks long starts now: it starts while this thread
  // compiles PDFium, and loads it while this thread opens the document and reads the first pages.
  if (options.parallel ?? (looksLong(bytes) && hasSpareCore())) preparePageWorker({ engine: 'pdfium', pdfium: compilePdfium() });
  const pages = await openPdfiumPages(bytes, { maxPages });
  try {
    return await layoutAll(bytes, pages, 'pdfium', options, withOutline);
  } finally {
    await pages.close();
  }
}

async function layoutAll(
  bytes: Uint8Array,
  doc: PageSource,
  engine: PdfEngine,
  options: ExtractLayoutsOptions,
  withOutline: boolean,
): Promise<DocumentLayouts> {
  const { signal, logger } = options;
  const n = doc.numPages;
  const layouts: (PageLayout | undefined)[] = new Array<PageLayout | undefined>(n).fill(undefined);
  const failures = new Map<number, string>();
  // Slot 0: next page to claim; slot 1: whether the worker took the job (see PageJob).
  const counter = new Int32Array(new SharedArrayBuffer(8));
  counter[0] = 1;
  const useWorker = options.parallel ?? (n >= MIN_PAGES_FOR_WORKER && hasSpareCore());
  const helper = useWorker
    ? runPageJob(
        bytes,
        counter,
        n,
        {
          page: (layout) => {
            classifyPageBlocks(layout);
            layouts[layout.pageNumber - 1] = layout;
          },
          pageError: (pageNumber, message) => failures.set(pageNumber, message),
        },
        { engine, ...(engine === 'pdfium' ? { pdfium: await compilePdfium() } : {}) },
      )
    : undefined;
  if (useWorker && !helper) logger?.debug('pdf: page worker busy or unavailable; reading pages on one thread');
  // On abort, no page is left to claim: the worker finishes its current page and is free again.
  const onAbort = (): void => {
    Atomics.store(counter, 0, n + 1);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let outline: OutlineEntry[] = [];
  try {
    let yielded = performance.now();
    for (let p = Atomics.add(counter, 0, 1); p <= n; p = Atomics.add(counter, 0, 1)) {
      if (performance.now() - yielded > YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
      await layoutInto(doc, p, layouts, failures, signal);
    }
    // A worker that has not taken the job yet (still starting) is told not to; otherwise it
    // finishes the pages it claimed, while this thread reads the outline.
    const helperBusy = helper !== undefined && Atomics.compareExchange(counter, 1, 0, 2) !== 0;
    if (withOutline) outline = await doc.outline();
    if (helperBusy) await helper.finished;
    // Pages a failed helper had claimed but not delivered.
    for (let p = 1; p <= n; p++) {
      if (!layouts[p - 1] && !failures.has(p)) await layoutInto(doc, p, layouts, failures, signal);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (failures.size > 0) {
    logger?.warn(`pdf: ${failures.size} of ${n} pages could not be read`, { pages: [...failures.keys()].slice(0, 20), reason: [...failures.values()][0] });
    if (failures.size === n) throw new PdfOpenError('unreadable', `no page of the PDF could be read: ${[...failures.values()][0]}`);
  }
  return { pages: layouts, outline };
}

async function layoutInto(
  doc: PageSource,
  p: number,
  layouts: (PageLayout | undefined)[],
  failures: Map<number, string>,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) throw new PdfOpenError('aborted', 'aborted while reading the PDF', { cause: signal.reason });
  try {
    layouts[p - 1] = await doc.layout(p);
  } catch (e) {
    if (signal?.aborted) throw new PdfOpenError('aborted', 'aborted while reading the PDF', { cause: signal.reason });
    failures.set(p, e instanceof Error ? e.message : String(e));
  }
}
