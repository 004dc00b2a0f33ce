/**
 * Worker-thread entry for the fast strategy. The thread lives across documents (starting it,
 * loading an engine included, costs far more than a page), and serves one job at a time: it opens its
 * own copy of the PDF and lays out pages, claiming page numbers from a counter shared with the main
 * thread, which does the same. Pages go back one message each, so the main thread can redo what a
 * crashed worker had claimed.
 *
 * It has no run-time dependency on `@quarry/core`: in a source checkout this file runs under the
 * tsx loader without the workspace's `source` export condition. It classifies the blocks of its
 * pages too, the costliest step after reading them, except those whose type the part-of-speech
 * tagger decides: the main thread classifies those, so only one thread loads the tagger's
 * dictionaries (a tenth of a second and more of parsing).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PdfEngine } from './engine.js';
import type { PageLayout } from './layout-types.js';
import { loadPdfjs, openPdf } from './pdfjs/load.js';
import { extractPageLayout } from './page-layout.js';
import { warmPdfium } from './pdfium/document.js';
import { adoptCompiledPdfium, type WasmModule } from './pdfium/module.js';
import { openPdfiumPages } from './pdfium/pages.js';

/** What the worker is started with. */
export interface PageWorkerData {
  /** The engine to load while starting. */
  engine: PdfEngine;
  /** PDFium compiled by the main thread. */
  pdfium?: WasmModule;
  /** The main thread is compiling PDFium: the module follows in a {@link PdfiumMessage}. */
  pdfiumFollows?: boolean;
}

/** PDFium compiled by the main thread, for a worker started with `pdfiumFollows`. */
export interface PdfiumMessage {
  type: 'pdfium';
  module: WasmModule;
}

/** A job: lay out pages of one document. */
export interface PageJob {
  type: 'job';
  id: number;
  bytes: Uint8Array;
  /**
   * An `Int32Array` view's buffer: slot 0 holds the next unclaimed 1-based page number; slot 1 is
   * the job state, 0 while waiting, 1 once the worker took it, 2 when the main thread withdrew it.
   */
  counter: SharedArrayBuffer;
  numPages: number;
  engine: PdfEngine;
}

/** Messages the worker posts; `ready` once its first engine is loaded, the others per job. */
export type PageWorkerMessage =
  | { type: 'ready' }
  | { type: 'page'; id: number; layout: PageLayout }
  | { type: 'pageError'; id: number; pageNumber: number; message: string }
  | { type: 'done'; id: number }
  | { type: 'fatal'; id: number; message: string };

const port = parentPort;

function post(message: PageWorkerMessage): void {
  port?.postMessage(message);
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

async function runJob(job: PageJob): Promise<void> {
  const counter = new Int32Array(job.counter);
  // The main thread may have read every page while this thread was starting.
  if (Atomics.compareExchange(counter, 1, 0, 1) !== 0) return;
  let layout: (p: number) => Promise<PageLayout>;
  let close: () => Promise<void> | void;
  if (job.engine === 'pdfium') {
    const pages = await openPdfiumPages(job.bytes, { tagger: false });
    layout = (p) => pages.layout(p);
    close = () => pages.close();
  } else {
    const handle = await openPdf(job.bytes);
    layout = (p) => extractPageLayout(handle.doc, p, { tagger: false });
    close = () => handle.close();
  }
  try {
    for (let p = Atomics.add(counter, 0, 1); p <= job.numPages; p = Atomics.add(counter, 0, 1)) {
      try {
        post({ type: 'page', id: job.id, layout: await layout(p) });
      } catch (e) {
        post({ type: 'pageError', id: job.id, pageNumber: p, message: errorText(e) });
      }
    }
  } finally {
    await close();
  }
}

if (port) {
  let queue = Promise.resolve();
  let givePdfium: (module: WasmModule) => void = () => undefined;
  port.on('message', (message: PageJob | PdfiumMessage) => {
    if (message.type === 'pdfium') return givePdfium(message.module);
    const job = message;
    queue = queue.then(() =>
      runJob(job).then(
        () => post({ type: 'done', id: job.id }),
        (e: unknown) => post({ type: 'fatal', id: job.id, message: errorText(e) }),
      ),
    );
  });
  const data = workerData as PageWorkerData;
  if (data.pdfium) adoptCompiledPdfium(data.pdfium);
  else if (data.pdfiumFollows) adoptCompiledPdfium(new Promise<WasmModule>((resolve) => (givePdfium = resolve)));
  void (data.engine === 'pdfium' ? warmPdfium() : loadPdfjs()).then(() => post({ type: 'ready' }));
}
