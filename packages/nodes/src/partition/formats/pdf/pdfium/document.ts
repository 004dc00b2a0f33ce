/**
 * A PDF opened with PDFium: opening (with the same failure kinds as the pdf.js path), reading one
 * page's text at a time, closing. Each thread keeps one PDFium instance for all its documents; it
 * is replaced after a trap (its memory may then be in any state) and dropped once idle with a
 * large memory (WebAssembly memory never shrinks), which keeps long-lived processes bounded.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */
import { PdfOpenError } from '../pdfjs/load.js';
import type { PageText } from '../page-layout.js';
import { instantiatePdfium, wasmApi, type Pdfium } from './module.js';
import { countPageObjects } from './page-objects.js';
import { renderPdfiumPage, type PdfiumBitmap } from './render.js';
import { readPdfiumPage } from './text.js';
import type { OutlineEntry } from '../headings.js';
import { MAX_OUTLINE_ENTRIES } from '../pdfjs/outline.js';

const TITLE_BUFFER = 1024;
// One decoder for every title: constructing one costs more than decoding a title.
const UTF16 = new TextDecoder('utf-16le');

/** Walks the bookmark tree depth first; a bookmark seen twice (a cyclic tree) ends the walk. */
function readPdfiumOutline(pdfium: Pdfium, doc: number): OutlineEntry[] {
  const { x } = pdfium;
  const out: OutlineEntry[] = [];
  const seen = new Set<number>();
  const buffer = x.malloc(TITLE_BUFFER);
  try {
    const visit = (parent: number, level: number): void => {
      for (
        let bm = x.FPDFBookmark_GetFirstChild(doc, parent);
        bm && !seen.has(bm) && out.length < MAX_OUTLINE_ENTRIES;
        bm = x.FPDFBookmark_GetNextSibling(doc, bm)
      ) {
        seen.add(bm);
        const n = Math.min(x.FPDFBookmark_GetTitle(bm, buffer, TITLE_BUFFER), TITLE_BUFFER);
        // UTF-16LE with a terminating NUL.
        const title = UTF16.decode(pdfium.u8().subarray(buffer, buffer + Math.max(0, n - 2)));
        let dest = x.FPDFBookmark_GetDest(doc, bm);
        if (!dest) {
          const action = x.FPDFBookmark_GetAction(bm);
          if (action) dest = x.FPDFAction_GetDest(doc, action);
        }
        const index = dest ? x.FPDFDest_GetDestPageIndex(doc, dest) : -1;
        out.push({ title, level, ...(index >= 0 ? { page: index + 1 } : {}) });
        if (level < 15) visit(bm, level + 1);
      }
    };
    visit(0, 0);
  } finally {
    x.free(buffer);
  }
  return out;
}

// PDFium's FPDF_GetLastError codes.
const FPDF_ERR_PASSWORD = 4;
const FPDF_ERR_SECURITY = 5;
// PDFium's page object types that can hold a picture (a form XObject may wrap a scan's image).
const FPDF_PAGEOBJ_IMAGE = 3;
const FPDF_PAGEOBJ_FORM = 5;
// An idle instance whose memory grew past this is dropped rather than kept for the next document.
const MAX_IDLE_MEMORY = 256 * 1024 * 1024;

// A document of this many pages (or a file this large, or one whose bytes show this many page
// objects, before its pages are counted) is read by an instance whose code V8 optimizes, as is
// every document once this thread has read BASELINE_PAGES pages in baseline code: the optimizing
// compiler pays for itself over a few dozen pages, not over a short document in a fresh process
// (see compilePdfium).
const MIN_PAGES_TO_OPTIMIZE = 16;
const MIN_BYTES_TO_OPTIMIZE = 1 << 20;
const BASELINE_PAGES = 32;

interface Instance {
  pdfium: Pdfium;
  open: number;
  broken: boolean;
  optimized: boolean;
}

let current: Promise<Instance> | undefined;
let baselinePagesRead = 0;

/** This thread's instance; with `optimized`, one whose code V8 optimizes (replacing a baseline one). */
async function acquire(optimized = false): Promise<Instance> {
  let pending = current;
  if (pending) {
    const instance = await pending;
    if (!instance.broken && (instance.optimized || !optimized)) {
      instance.open++;
      return instance;
    }
    if (current === pending) current = undefined;
  }
  pending = current ??= instantiatePdfium(optimized).then((pdfium) => ({ pdfium, open: 0, broken: false, optimized }));
  const instance = await pending;
  instance.open++;
  return instance;
}

function release(instance: Instance): void {
  instance.open--;
  if (instance.open > 0 || !current) return;
  if (instance.broken || instance.pdfium.x.memory.buffer.byteLength > MAX_IDLE_MEMORY) {
    void current.then((c) => {
      if (c === instance && instance.open === 0) current = undefined;
    });
  }
}

/** Instantiates this thread's PDFium ahead of its first document (a long one: the page worker's). */
export async function warmPdfium(): Promise<void> {
  release(await acquire(true));
}

/**
 * Whether `bytes` look like a long document before they are parsed: a large file, or one whose
 * bytes show {@link MIN_PAGES_TO_OPTIMIZE} page objects (see {@link countPageObjects}).
 */
export function looksLong(bytes: Uint8Array): boolean {
  return bytes.length >= MIN_BYTES_TO_OPTIMIZE || countPageObjects(bytes, MIN_PAGES_TO_OPTIMIZE) >= MIN_PAGES_TO_OPTIMIZE;
}

/** Options of {@link PdfiumDocument.open}. */
export interface PdfiumOpenOptions {
  /** User password, when the caller has one. */
  password?: string;
  /** A document of more pages fails with kind `too-many-pages` before any page is read. */
  maxPages?: number;
}

/** An open PDFium document. Call {@link close} when done. */
export class PdfiumDocument {
  /** Number of pages. */
  readonly numPages: number;
  private instance: Instance;
  private doc: number;
  private data: number;
  private closed = false;
  // Kept to open the document again after a trap.
  private readonly bytes: Uint8Array;
  private readonly password: string | undefined;

  private constructor(instance: Instance, loaded: { doc: number; data: number }, bytes: Uint8Array, password: string | undefined) {
    this.instance = instance;
    this.doc = loaded.doc;
    this.data = loaded.data;
    this.bytes = bytes;
    this.password = password;
    this.numPages = instance.pdfium.x.FPDF_GetPageCount(loaded.doc);
  }

  /**
   * Opens a PDF. A file that needs a user password fails with kind `password`; a file PDFium
   * cannot parse (it repairs a broken cross-reference table itself first) with kind `unreadable`;
   * one of more than `maxPages` pages with kind `too-many-pages`.
   */
  static async open(bytes: Uint8Array, options: PdfiumOpenOptions = {}): Promise<PdfiumDocument> {
    // Deciding before the first load spares a long document a load in a baseline instance that
    // a fresh thread would compile and instantiate for nothing (the page count, after, still decides).
    const optimize = baselinePagesRead >= BASELINE_PAGES || looksLong(bytes);
    let document = PdfiumDocument.openIn(await acquire(optimize), bytes, options.password);
    if (options.maxPages !== undefined && document.numPages > options.maxPages) {
      document.close();
      throw new PdfOpenError('too-many-pages', `the PDF has ${document.numPages} pages`, { pages: document.numPages });
    }
    if (!document.instance.optimized && document.numPages >= MIN_PAGES_TO_OPTIMIZE) {
      document.close();
      document = PdfiumDocument.openIn(await acquire(true), bytes, options.password);
    }
    return document;
  }

  private static openIn(instance: Instance, bytes: Uint8Array, password: string | undefined): PdfiumDocument {
    let loaded: { doc: number; data: number };
    try {
      loaded = load(instance.pdfium, bytes, password);
    } catch (e) {
      if (isTrap(e)) instance.broken = true;
      release(instance);
      throw e instanceof PdfOpenError ? e : new PdfOpenError('unreadable', `the PDF cannot be parsed: ${errorText(e)}`, { cause: e });
    }
    return new PdfiumDocument(instance, loaded, bytes, password);
  }

  /** Whether the instance reading this document is one whose code V8 optimizes (see `compilePdfium`). */
  get optimized(): boolean {
    return this.instance.optimized;
  }

  /**
   * Reads page `pageNumber` (1-based). A trap inside PDFium fails this page only: the document is
   * opened again in a fresh instance for the pages after it.
   */
  async pageText(pageNumber: number): Promise<PageText> {
    if (this.closed) throw new Error('the document is closed');
    if (!this.instance.optimized) baselinePagesRead++;
    try {
      return readPdfiumPage(this.instance.pdfium, this.doc, pageNumber - 1);
    } catch (e) {
      if (!isTrap(e)) throw e;
      this.instance.broken = true;
      await this.reopen();
      throw new Error(`PDFium failed on page ${pageNumber}: ${errorText(e)}`, { cause: e });
    }
  }

  /**
   * Renders page `pageNumber` (1-based) at `dpi`, or less past `maxPixels` pixels or a side of
   * `maxSide` (page pictures). A trap fails this page only, as in {@link pageText}.
   */
  async render(pageNumber: number, dpi: number, maxPixels: number, maxSide?: number): Promise<PdfiumBitmap> {
    if (this.closed) throw new Error('the document is closed');
    if (!this.instance.optimized) baselinePagesRead++;
    try {
      return renderPdfiumPage(this.instance.pdfium, this.doc, pageNumber - 1, dpi, maxPixels, maxSide);
    } catch (e) {
      if (!isTrap(e)) throw e;
      this.instance.broken = true;
      await this.reopen();
      throw new Error(`PDFium failed to render page ${pageNumber}: ${errorText(e)}`, { cause: e });
    }
  }

  /**
   * The document outline (bookmarks), flattened in document order with levels and target pages;
   * at most {@link MAX_OUTLINE_ENTRIES} entries. Empty when the document has none or PDFium fails on it.
   */
  outline(): OutlineEntry[] {
    if (this.closed) throw new Error('the document is closed');
    try {
      return readPdfiumOutline(this.instance.pdfium, this.doc);
    } catch (e) {
      if (isTrap(e)) this.instance.broken = true;
      return [];
    }
  }

  /**
   * The largest share of page `pageNumber`'s area one picture covers (an image object, or a form
   * XObject, which may wrap one), 0 without any; 1 when the page cannot be read, so that a caller
   * deciding whether a page is a scan leaves the question to a closer look.
   */
  pictureCover(pageNumber: number): number {
    if (this.closed) throw new Error('the document is closed');
    const pdfium = this.instance.pdfium;
    const { x, scratch } = pdfium;
    try {
      const page = x.FPDF_LoadPage(this.doc, pageNumber - 1);
      if (!page) return 1;
      try {
        const area = x.FPDF_GetPageWidthF(page) * x.FPDF_GetPageHeightF(page);
        if (!(area > 0)) return 1;
        let cover = 0;
        for (let i = 0, n = x.FPDFPage_CountObjects(page); i < n; i++) {
          const object = x.FPDFPage_GetObject(page, i);
          const type = x.FPDFPageObj_GetType(object);
          if (type !== FPDF_PAGEOBJ_IMAGE && type !== FPDF_PAGEOBJ_FORM) continue;
          if (!x.FPDFPageObj_GetBounds(object, scratch, scratch + 4, scratch + 8, scratch + 12)) continue;
          const f = pdfium.f32();
          const o = scratch >> 2;
          cover = Math.max(cover, Math.abs((f[o + 2]! - f[o]!) * (f[o + 3]! - f[o + 1]!)) / area);
        }
        return cover;
      } finally {
        x.FPDF_ClosePage(page);
      }
    } catch (e) {
      if (isTrap(e)) this.instance.broken = true;
      return 1;
    }
  }

  /** Closes the document and frees its memory; safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const { x } = this.instance.pdfium;
    if (!this.instance.broken) {
      try {
        x.FPDF_CloseDocument(this.doc);
        x.free(this.data);
      } catch {
        this.instance.broken = true;
      }
    }
    release(this.instance);
  }

  private async reopen(): Promise<void> {
    release(this.instance);
    this.instance = await acquire(this.instance.optimized);
    try {
      const { doc, data } = load(this.instance.pdfium, this.bytes, this.password);
      this.doc = doc;
      this.data = data;
    } catch (e) {
      this.closed = true;
      release(this.instance);
      throw e;
    }
  }
}

/** Copies the bytes into PDFium's memory and opens them; the copy lives until the document closes. */
function load(pdfium: Pdfium, bytes: Uint8Array, password: string | undefined): { doc: number; data: number } {
  const { x } = pdfium;
  const data = x.malloc(Math.max(1, bytes.length));
  if (!data) throw new Error('PDFium could not allocate memory for the file');
  pdfium.u8().set(bytes, data);
  let pw = 0;
  if (password) {
    const utf8 = new TextEncoder().encode(password);
    pw = x.malloc(utf8.length + 1);
    const heap = pdfium.u8();
    heap.set(utf8, pw);
    heap[pw + utf8.length] = 0;
  }
  const doc = x.FPDF_LoadMemDocument(data, bytes.length, pw);
  if (pw) x.free(pw);
  if (doc) return { doc, data };
  const code = x.FPDF_GetLastError();
  x.free(data);
  if (code === FPDF_ERR_PASSWORD) {
    const reason = password ? 'the given password is incorrect' : 'it is encrypted with a user password';
    throw new PdfOpenError('password', `the PDF cannot be opened: ${reason}`);
  }
  const what = code === FPDF_ERR_SECURITY ? 'its encryption is not supported' : 'it is damaged or not a PDF';
  throw new PdfOpenError('unreadable', `the PDF cannot be parsed: ${what} (PDFium error ${code})`);
}

/** A WebAssembly trap or an Emscripten abort: the instance can no longer be trusted. */
function isTrap(e: unknown): boolean {
  return e instanceof wasmApi.RuntimeError || (e instanceof Error && /^Aborted\(/.test(e.message));
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
