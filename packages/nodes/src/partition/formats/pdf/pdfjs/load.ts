/**
 * Loading PDFs with pdf.js: the lazy import of pdf.js (the legacy build of `pdfjs-dist`, the only
 * one that runs on Node 20, patched and copied into the package's `vendor/pdfjs/` by the build), the
 * document options every caller shares, and the mapping of pdf.js failures onto coded errors. This
 * file must not import `@quarry/core`: the page worker thread loads it without the workspace's
 * source-condition resolution. Errors leave here as {@link PdfOpenError}; `pdf/index.ts` turns them into
 * `QuarryError`s.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as PdfjsModuleNs from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The pdf.js module namespace. */
export type PdfjsModule = typeof PdfjsModuleNs;
/** An open pdf.js document. */
export type PdfDocument = PdfjsModuleNs.PDFDocumentProxy;
/** One page of an open pdf.js document. */
export type PdfPage = PdfjsModuleNs.PDFPageProxy;

/** Why a PDF could not be opened or read; `pdf/index.ts` maps each kind onto a `QuarryError` code. */
export type PdfFailureKind = 'password' | 'unreadable' | 'aborted' | 'too-many-pages';

/** A failure of pdf.js, classified. */
export class PdfOpenError extends Error {
  /** What went wrong. */
  readonly kind: PdfFailureKind;
  /** The page count, for kind `too-many-pages`. */
  readonly pages?: number;

  constructor(kind: PdfFailureKind, message: string, options?: { cause?: unknown; pages?: number }) {
    super(message, options);
    this.name = 'PdfOpenError';
    this.kind = kind;
    if (options?.pages !== undefined) this.pages = options.pages;
  }
}

let pdfjsPromise: Promise<PdfjsModule> | undefined;

// The same from src/ and dist/: both sit below the package root, beside vendor/.
const VENDORED_PDFJS = new URL('../../../../../vendor/pdfjs/', import.meta.url);

// What pdf.js prints when it finds no @napi-rs/canvas: text extraction needs none of it.
const CANVAS_WARNING = /^Warning: Cannot (load "@napi-rs\/canvas"|polyfill `(DOMMatrix|ImageData|Path2D)`)/;

/**
 * pdf.js builds a `DOMMatrix` when it loads, which Node lacks; it takes the one of `@napi-rs/canvas`
 * (an optional peer, needed to render pages) and otherwise fails to load. Without the canvas, a
 * JavaScript `DOMMatrix` stands in: reading text needs no more. Returns whether it did.
 */
async function provideDomMatrix(): Promise<boolean> {
  const scope = globalThis as { DOMMatrix?: unknown };
  if (scope.DOMMatrix) return false;
  try {
    createRequire(VENDORED_PDFJS).resolve('@napi-rs/canvas');
    return false;
  } catch {
    const { default: CSSMatrix } = await import('@thednp/dommatrix');
    scope.DOMMatrix = CSSMatrix;
    return true;
  }
}

/**
 * Imports pdf.js once per thread; importing it costs about 170 ms, so only PDFs pay for it.
 *
 * The legacy build bundles core-js, which replaces `Array.prototype.push`, `JSON.parse` and
 * `JSON.stringify` for the whole process with spec-edge-case polyfills about twice as slow as the
 * engine's own. Nothing pdf.js does needs those edge cases, so the engine's versions are put back;
 * the polyfills that *add* missing methods (Promise.withResolvers, Set methods, ...) stay. The
 * worker bundle (which pdf.js itself imports on first use, running it on this thread in Node)
 * carries the same polyfills, so it is imported here first and pdf.js finds it cached.
 */
export function loadPdfjs(): Promise<PdfjsModule> {
  pdfjsPromise ??= (async () => {
    const push = Array.prototype.push;
    const { parse, stringify } = JSON;
    const warn = console.warn;
    if (await provideDomMatrix()) {
      console.warn = (...args: unknown[]) => {
        if (typeof args[0] !== 'string' || !CANVAS_WARNING.test(args[0])) warn.apply(console, args);
      };
    }
    try {
      const pdfjs = (await import(new URL('pdf.mjs', VENDORED_PDFJS).href)) as PdfjsModule;
      await import(new URL('pdf.worker.mjs', VENDORED_PDFJS).href);
      return pdfjs;
    } finally {
      console.warn = warn;
      if (Array.prototype.push !== push) Array.prototype.push = push;
      if (JSON.parse !== parse) JSON.parse = parse;
      if (JSON.stringify !== stringify) JSON.stringify = stringify;
    }
  })();
  return pdfjsPromise;
}

let assetDirs: { standardFontDataUrl: string; cMapUrl: string } | undefined;

/**
 * pdf.js's `standard_fonts/` and `cmaps/` directories as file paths with a trailing slash:
 * pdf.js reads them from disk in Node, so nothing is fetched at run time.
 */
export function pdfjsAssetDirs(): { standardFontDataUrl: string; cMapUrl: string } {
  if (!assetDirs) {
    const root = fileURLToPath(VENDORED_PDFJS);
    assetDirs = {
      standardFontDataUrl: path.join(root, 'standard_fonts') + path.sep,
      cMapUrl: path.join(root, 'cmaps') + path.sep,
    };
  }
  return assetDirs;
}

/** Options for {@link openPdf}. */
export interface OpenPdfOptions {
  signal?: AbortSignal;
  /** User password, when the caller has one. */
  password?: string;
  /** A document of more pages fails with kind `too-many-pages` before any page is read. */
  maxPages?: number;
}

/** An open document and the way to close it. */
export interface PdfHandle {
  doc: PdfDocument;
  /** Destroys the document and detaches the abort hook; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens a PDF. An owner-password-only file opens as is; a file that needs a user password fails
 * with kind `password`; a file pdf.js cannot parse fails with kind `unreadable` (pdf.js rebuilds a
 * broken xref table by itself first); a file of more than `maxPages` pages fails with kind
 * `too-many-pages`. Aborting the signal destroys the loading task (and so the
 * document); requests still pending then mostly fail, and {@link withPdf} does not wait for those
 * that never settle.
 *
 * The caller must `close()` the handle; {@link withPdf} does that.
 */
export async function openPdf(bytes: Uint8Array, options: OpenPdfOptions = {}): Promise<PdfHandle> {
  const { signal } = options;
  const aborted = (): PdfOpenError => new PdfOpenError('aborted', 'aborted before the PDF was opened', { cause: signal?.reason });
  if (signal?.aborted) throw aborted();
  const pdfjs = await loadPdfjs();
  if (signal?.aborted) throw aborted();
  const task = pdfjs.getDocument({
    // pdf.js may take ownership of (detach) the buffer it is given: hand it a copy.
    data: bytes.slice(),
    password: options.password,
    ...pdfjsAssetDirs(),
    cMapPacked: true,
    useSystemFonts: false,
    disableFontFace: true,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  const onAbort = (): void => void task.destroy();
  signal?.addEventListener('abort', onAbort, { once: true });
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    signal?.removeEventListener('abort', onAbort);
    await task.destroy().catch(() => undefined);
  };
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (e) {
    await close();
    throw classifyPdfError(e, signal);
  }
  // The page count is the page tree's /Count: a file of a few KB can claim any number of pages.
  if (options.maxPages !== undefined && doc.numPages > options.maxPages) {
    await close();
    throw new PdfOpenError('too-many-pages', `the PDF has ${doc.numPages} pages`, { pages: doc.numPages });
  }
  return { doc, close };
}

/**
 * Opens a PDF, runs `fn`, and always closes the document. Errors thrown by pdf.js inside `fn`
 * are classified like those of {@link openPdf}. When the signal aborts, the call rejects at once:
 * some pdf.js requests (an operator list, say) never settle once their document is destroyed, so
 * `fn` is not waited for.
 */
export async function withPdf<T>(bytes: Uint8Array, options: OpenPdfOptions, fn: (doc: PdfDocument) => Promise<T>): Promise<T> {
  const { signal } = options;
  const handle = await openPdf(bytes, options);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new PdfOpenError('aborted', 'aborted while reading the PDF', { cause: signal?.reason }));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  // The work keeps running after an abort until its pending request fails; its rejection is moot.
  const work = fn(handle.doc);
  work.catch(() => undefined);
  try {
    return await (signal ? Promise.race([work, aborted]) : work);
  } catch (e) {
    throw classifyPdfError(e, signal);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await handle.close();
  }
}

/** Classifies anything pdf.js threw. Already classified errors and non-pdf.js errors pass through. */
export function classifyPdfError(e: unknown, signal?: AbortSignal): unknown {
  if (e instanceof PdfOpenError) return e;
  if (signal?.aborted) return new PdfOpenError('aborted', 'aborted while reading the PDF', { cause: signal.reason });
  if (!(e instanceof Error) && !(typeof e === 'object' && e !== null && 'name' in e)) return e;
  const err = e as { name?: unknown; message?: unknown; code?: unknown };
  const name = typeof err.name === 'string' ? err.name : '';
  const message = typeof err.message === 'string' ? err.message : String(e);
  if (name === 'PasswordException') {
    const reason = err.code === 2 ? 'the given password is incorrect' : 'it is encrypted with a user password';
    return new PdfOpenError('password', `the PDF cannot be opened: ${reason}`, { cause: e });
  }
  if (PDFJS_PARSE_ERRORS.has(name)) return new PdfOpenError('unreadable', `the PDF cannot be parsed: ${message}`, { cause: e });
  if (name === 'AbortException') return new PdfOpenError('aborted', 'reading the PDF was cancelled', { cause: e });
  return e;
}

/** pdf.js exception names that mean the bytes are not a PDF it can read. */
const PDFJS_PARSE_ERRORS = new Set([
  'InvalidPDFException',
  'MissingPDFException',
  'UnexpectedResponseException',
  'ResponseException',
  'FormatError',
  'UnknownErrorException',
  'XRefParseException',
]);
