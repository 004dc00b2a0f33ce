/**
 * Worker-thread entry for the fast strategy: opens its own copy of the PDF and lays out pages,
 * claiming page numbers from a counter shared with the main thread, which does the same. Pages go
 * back one message each, so the main thread can redo whatever a crashed worker had claimed.
 *
 * It has no run-time dependency on `@quarry/core`: in a source checkout this file runs under the
 * tsx loader without the workspace's `source` export condition. Block classification is left to
 * the main thread (see `classifyPageBlocks`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PageLayout } from './pdf-layout-types.js';
import { openPdf } from './pdf-load.js';
import { extractPageLayout } from './pdf-page-layout.js';

/** What the main thread passes to the worker. */
export interface PageWorkerData {
  bytes: Uint8Array;
  /** An `Int32Array` view's buffer: slot 0 holds the next unclaimed 1-based page number. */
  counter: SharedArrayBuffer;
  numPages: number;
}

/** Messages the worker posts. */
export type PageWorkerMessage =
  | { type: 'page'; layout: PageLayout }
  | { type: 'pageError'; pageNumber: number; message: string }
  | { type: 'done' }
  | { type: 'fatal'; message: string };

function post(message: PageWorkerMessage): void {
  parentPort?.postMessage(message);
}

async function run(data: PageWorkerData): Promise<void> {
  const counter = new Int32Array(data.counter);
  const handle = await openPdf(data.bytes);
  try {
    for (let p = Atomics.add(counter, 0, 1); p <= data.numPages; p = Atomics.add(counter, 0, 1)) {
      try {
        post({ type: 'page', layout: await extractPageLayout(handle.doc, p, { classify: false }) });
      } catch (e) {
        post({ type: 'pageError', pageNumber: p, message: e instanceof Error ? e.message : String(e) });
      }
    }
  } finally {
    await handle.close();
  }
  post({ type: 'done' });
}

if (parentPort) {
  run(workerData as PageWorkerData).catch((e: unknown) => post({ type: 'fatal', message: e instanceof Error ? e.message : String(e) }));
}
