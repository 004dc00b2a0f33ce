/**
 * Text layout of every page of a PDF, using a second thread for long documents.
 *
 * pdf.js in Node parses on the calling thread (its "fake worker"), so one document uses one core.
 * For long documents a worker thread opens its own copy and both threads claim pages from a
 * shared counter, which balances uneven pages without any planning. Results are put back in page
 * order; pages a failed worker had claimed are redone on the main thread.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@quarry/core';
import type { PageLayout } from './pdf-layout-types.js';
import { PdfOpenError, withPdf, type PdfDocument } from './pdf-load.js';
import { classifyPageBlocks, extractPageLayout } from './pdf-page-layout.js';
import type { PageWorkerData, PageWorkerMessage } from './pdf-page-worker.js';

// Starting a worker (pdf.js import and document open) costs about 0.3 s, about 50 pages' work.
const MIN_PAGES_FOR_WORKER = 24;

/** Options of {@link extractLayouts}. */
export interface ExtractLayoutsOptions {
  signal?: AbortSignal;
  logger?: Logger;
  /** Use a worker thread: `true`/`false` to force, unset to decide by page count and cores. */
  parallel?: boolean;
}

/**
 * Lays out every page. The result has one entry per page, `undefined` for a page that could not
 * be read (logged as a warning). Fails with kind `unreadable` when no page at all could be read.
 */
export async function extractLayouts(bytes: Uint8Array, options: ExtractLayoutsOptions = {}): Promise<(PageLayout | undefined)[]> {
  const { signal, logger } = options;
  return withPdf(bytes, { signal }, async (doc) => {
    const n = doc.numPages;
    const layouts: (PageLayout | undefined)[] = new Array<PageLayout | undefined>(n).fill(undefined);
    const failures = new Map<number, string>();
    const counter = new Int32Array(new SharedArrayBuffer(4));
    counter[0] = 1;
    const useWorker = options.parallel ?? (n >= MIN_PAGES_FOR_WORKER && availableParallelism() >= 2);
    const helper = useWorker ? startHelper(bytes, counter, n, layouts, failures, logger) : undefined;
    const onAbort = (): void => void helper?.stop();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (let p = Atomics.add(counter, 0, 1); p <= n; p = Atomics.add(counter, 0, 1)) {
        await layoutInto(doc, p, layouts, failures, signal);
      }
      if (helper) await helper.finished;
      // Pages a failed helper had claimed but not delivered.
      for (let p = 1; p <= n; p++) {
        if (!layouts[p - 1] && !failures.has(p)) await layoutInto(doc, p, layouts, failures, signal);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await helper?.stop();
    }
    if (failures.size > 0) {
      logger?.warn(`pdf: ${failures.size} of ${n} pages could not be read`, { pages: [...failures.keys()].slice(0, 20), reason: [...failures.values()][0] });
      if (failures.size === n) throw new PdfOpenError('unreadable', `no page of the PDF could be read: ${[...failures.values()][0]}`);
    }
    return layouts;
  });
}

async function layoutInto(
  doc: PdfDocument,
  p: number,
  layouts: (PageLayout | undefined)[],
  failures: Map<number, string>,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal?.aborted) throw new PdfOpenError('aborted', 'aborted while reading the PDF', { cause: signal.reason });
  try {
    layouts[p - 1] = await extractPageLayout(doc, p);
  } catch (e) {
    if (signal?.aborted) throw new PdfOpenError('aborted', 'aborted while reading the PDF', { cause: signal.reason });
    failures.set(p, e instanceof Error ? e.message : String(e));
  }
}

interface Helper {
  /** Settles when the worker has finished, failed or exited (never rejects). */
  finished: Promise<void>;
  stop(): Promise<void>;
}

function startHelper(
  bytes: Uint8Array,
  counter: Int32Array,
  numPages: number,
  layouts: (PageLayout | undefined)[],
  failures: Map<number, string>,
  logger: Logger | undefined,
): Helper | undefined {
  const entry = workerEntry();
  if (!entry) return undefined;
  let worker: Worker;
  try {
    const data: PageWorkerData = { bytes: bytes.slice(), counter: counter.buffer as SharedArrayBuffer, numPages };
    worker = new Worker(entry, { workerData: data, transferList: [data.bytes.buffer as ArrayBuffer] });
  } catch (e) {
    logger?.debug('pdf: page worker not started; reading pages on one thread', { reason: e instanceof Error ? e.message : String(e) });
    return undefined;
  }
  const finished = new Promise<void>((resolve) => {
    worker.on('message', (m: PageWorkerMessage) => {
      if (m.type === 'page') {
        classifyPageBlocks(m.layout);
        layouts[m.layout.pageNumber - 1] = m.layout;
      }
      else if (m.type === 'pageError') failures.set(m.pageNumber, m.message);
      else if (m.type === 'fatal') {
        logger?.debug('pdf: page worker failed; the main thread reads its pages', { reason: m.message });
        resolve();
      } else resolve();
    });
    worker.on('error', (e) => {
      logger?.debug('pdf: page worker crashed; the main thread reads its pages', { reason: e.message });
      resolve();
    });
    worker.on('exit', () => resolve());
  });
  return {
    finished,
    stop: async () => {
      await worker.terminate().catch(() => undefined);
    },
  };
}

/**
 * The worker script next to this module: `.js` when running the build. When running from source
 * (tests, benches) it is `.ts`, loaded through tsx (a workspace dev dependency) by a small ES
 * module bootstrap, because Node 20 does not apply `--import` loaders to a worker's entry module.
 */
function workerEntry(): URL | undefined {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./pdf-page-worker.js', here);
  let api: string;
  try {
    // The package's `import` condition points at the .mjs twin of the `require` entry.
    api = pathToFileURL(createRequire(here).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  } catch {
    return undefined;
  }
  const entry = new URL('./pdf-page-worker.ts', here).href;
  const bootstrap = `const { tsImport } = await import(${JSON.stringify(api)}); await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
