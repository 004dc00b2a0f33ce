/**
 * Worker-thread entry for the fast strategy. The thread lives across documents (starting it,
 * pdf.js import included, costs far more than a page), and serves one job at a time: it opens its
 * own copy of the PDF and lays out pages, claiming page numbers from a counter shared with the main
 * thread, which does the same. Pages go back one message each, so the main thread can redo what a
 * crashed worker had claimed.
 *
 * It has no run-time dependency on `@quarry/core`: in a source checkout this file runs under the
 * tsx loader without the workspace's `source` export condition. It classifies the blocks of its
 * pages too, the costliest step after pdf.js itself; the thread lives long enough to amortize
 * loading the part-of-speech tagger.
 */
import { parentPort } from 'node:worker_threads';
import type { PageLayout } from './pdf-layout-types.js';
import { loadPdfjs, openPdf } from './pdf-load.js';
import { extractPageLayout } from './pdf-page-layout.js';

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
}

/** Messages the worker posts; `ready` once pdf.js is loaded, the others per job. */
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
  const handle = await openPdf(job.bytes);
  try {
    for (let p = Atomics.add(counter, 0, 1); p <= job.numPages; p = Atomics.add(counter, 0, 1)) {
      try {
        post({ type: 'page', id: job.id, layout: await extractPageLayout(handle.doc, p) });
      } catch (e) {
        post({ type: 'pageError', id: job.id, pageNumber: p, message: errorText(e) });
      }
    }
  } finally {
    await handle.close();
  }
}

if (port) {
  let queue = Promise.resolve();
  port.on('message', (job: PageJob) => {
    queue = queue.then(() =>
      runJob(job).then(
        () => post({ type: 'done', id: job.id }),
        (e: unknown) => post({ type: 'fatal', id: job.id, message: errorText(e) }),
      ),
    );
  });
  void loadPdfjs().then(() => post({ type: 'ready' }));
}
