/**
 * The main-thread side of the page worker (`page-worker.ts`): one long-lived worker thread,
 * started on first use, lent to one document at a time. While it is busy (or still starting),
 * other documents simply read all their pages on their own thread. An idle worker does not keep
 * the process alive and ends after {@link PAGE_WORKER_IDLE_MS}.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PdfEngine } from './engine.js';
import type { PageLayout } from './layout-types.js';
import type { PageJob, PageWorkerData, PageWorkerMessage, PdfiumMessage } from './page-worker.js';
import type { WasmModule } from './pdfium/module.js';

/** How long an idle page worker is kept, in milliseconds. */
export const PAGE_WORKER_IDLE_MS = 60_000;

/** Callbacks of one job. */
export interface PageJobSink {
  page(layout: PageLayout): void;
  pageError(pageNumber: number, message: string): void;
}

/** How the worker reads the job's document. */
export interface PageJobEngine {
  engine: PdfEngine;
  /**
   * The compiled PDFium module, handed to a worker that starts now so it need not compile it; a
   * worker given the compilation under way starts at once and gets the module once compiled.
   */
  pdfium?: WasmModule | Promise<WasmModule>;
}

/** A job lent to the worker. */
export interface PageJobHandle {
  /** Settles when the worker has finished the job, failed, or died (never rejects). */
  finished: Promise<void>;
}

interface Host {
  worker: Worker;
  busy: boolean;
  ready: boolean;
  stopping: boolean;
  idleTimer?: NodeJS.Timeout;
  current?: { id: number; sink: PageJobSink; resolve(): void };
}

let host: Host | undefined;
let nextJobId = 1;
// Set when a worker died before it was ready: starting another would fail the same way.
let unavailable = false;

/**
 * Lends the worker to a job, starting it when none runs. Returns `undefined` when the worker is
 * busy with another document or cannot be started; the caller then reads every page itself.
 * The job's pages are claimed through `counter` (see `PageJob`), so a worker that starts late
 * just claims fewer pages.
 */
export function runPageJob(bytes: Uint8Array, counter: Int32Array, numPages: number, sink: PageJobSink, engine: PageJobEngine): PageJobHandle | undefined {
  if (unavailable) return undefined;
  const h = host ?? startHost(engine);
  if (!h || h.busy) return undefined;
  h.busy = true;
  if (h.idleTimer) clearTimeout(h.idleTimer);
  h.worker.ref();
  const id = nextJobId++;
  const finished = new Promise<void>((resolve) => {
    h.current = { id, sink, resolve };
  });
  const job: PageJob = { type: 'job', id, bytes: bytes.slice(), counter: counter.buffer as SharedArrayBuffer, numPages, engine: engine.engine };
  h.worker.postMessage(job, [job.bytes.buffer as ArrayBuffer]);
  return { finished };
}

/**
 * Starts the worker ahead of its first job (a long document about to be opened), so that it starts
 * and loads the engine while this thread opens the document. Does nothing when a worker runs or
 * none can start; one that gets no job ends after {@link PAGE_WORKER_IDLE_MS}.
 */
export function preparePageWorker(engine: PageJobEngine): void {
  if (unavailable || host) return;
  const h = startHost(engine);
  if (h) idleFromNow(h);
}

function finishJob(h: Host): void {
  const current = h.current;
  h.current = undefined;
  h.busy = false;
  h.worker.unref();
  idleFromNow(h);
  current?.resolve();
}

function idleFromNow(h: Host): void {
  h.idleTimer = setTimeout(() => {
    if (host === h && !h.busy) void stopPageWorker();
  }, PAGE_WORKER_IDLE_MS);
  h.idleTimer.unref();
}

function startHost(engine: PageJobEngine): Host | undefined {
  const entry = workerEntry();
  if (!entry) return undefined;
  let worker: Worker;
  const { pdfium } = engine;
  try {
    // The worker loads the first job's engine while it starts; another engine loads on first use.
    const workerData: PageWorkerData = {
      engine: engine.engine,
      ...(pdfium instanceof Promise ? { pdfiumFollows: true } : pdfium ? { pdfium } : {}),
    };
    worker = new Worker(entry, { workerData });
  } catch {
    return undefined;
  }
  const h: Host = { worker, busy: false, ready: false, stopping: false };
  if (pdfium instanceof Promise) {
    // A compilation that fails fails the document on this thread too; the worker is not kept waiting.
    pdfium.then(
      (module) => worker.postMessage({ type: 'pdfium', module } satisfies PdfiumMessage),
      () => {
        if (host === h) void stopPageWorker();
      },
    );
  }
  worker.unref();
  worker.on('message', (m: PageWorkerMessage) => {
    if (m.type === 'ready') h.ready = true;
    if (m.type === 'ready' || m.id !== h.current?.id) return;
    if (m.type === 'page') h.current.sink.page(m.layout);
    else if (m.type === 'pageError') h.current.sink.pageError(m.pageNumber, m.message);
    else finishJob(h);
  });
  const onDeath = (): void => {
    if (!h.ready && !h.stopping) unavailable = true;
    if (host === h) host = undefined;
    const current = h.current;
    h.current = undefined;
    current?.resolve();
  };
  worker.on('error', onDeath);
  worker.on('exit', onDeath);
  host = h;
  return h;
}

/** Ends the page worker (tests, shutdown); the next document starts a new one. */
export async function stopPageWorker(): Promise<void> {
  const h = host;
  host = undefined;
  if (!h) return;
  h.stopping = true;
  if (h.idleTimer) clearTimeout(h.idleTimer);
  await h.worker.terminate().catch(() => undefined);
}

/**
 * The worker script next to this module: when running the build, the bundle of its modules the
 * build makes (one file starts the thread sooner than its thirty-odd modules), or `.js` where there
 * is none. When running from source (tests, benches) it is `.ts`, loaded through tsx (a workspace
 * dev dependency) by a small ES module bootstrap, because Node 20 does not apply `--import` loaders
 * to a worker's entry module.
 */
export function workerEntry(): URL | undefined {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) {
    const bundle = new URL('./page-worker.bundle.js', here);
    return existsSync(bundle) ? bundle : new URL('./page-worker.js', here);
  }
  let api: string;
  try {
    // The package's `import` condition points at the .mjs twin of the `require` entry.
    api = pathToFileURL(
      createRequire(here)
        .resolve('tsx/esm/api')
        .replace(/\.cjs$/, '.mjs'),
    ).href;
  } catch {
    return undefined;
  }
  const entry = new URL('./page-worker.ts', here).href;
  const bootstrap = `const { tsImport } = await import(${JSON.stringify(api)}); await tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}
