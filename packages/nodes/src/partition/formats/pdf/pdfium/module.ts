/**
 * The PDFium WebAssembly module of `@hyzyla/pdfium`, loaded once per thread from the package's own
 * `pdfium.wasm` (read from disk: nothing is fetched). Only the raw exports are used: the package's
 * JavaScript wrappers check every call's arguments, which costs more than the call on a page of
 * thousands of characters, and its Emscripten glue is replaced by the few imports PDFium calls
 * (runtime.ts).
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { emscriptenRuntime, type EmscriptenExports } from './runtime.js';

/** Pointers and handles are offsets into the module's memory (32-bit). */
type Ptr = number;

/** A compiled WebAssembly module (opaque here; it can be posted to a worker thread). */
export type WasmModule = object;
interface WasmInstance {
  exports: object;
}
/** The parts of the `WebAssembly` global used here (the project's type libraries leave it out). */
interface WasmApi {
  compile(bytes: Uint8Array): Promise<WasmModule>;
  instantiate(module: WasmModule, imports: object): Promise<WasmInstance>;
  RuntimeError: new () => Error;
}
/** The runtime's `WebAssembly`. */
export const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The raw PDFium exports used by quarry (see PDFium's `fpdfview.h`, `fpdf_text.h` and `fpdf_edit.h`). */
export interface PdfiumExports {
  memory: { buffer: ArrayBuffer };
  malloc(size: number): Ptr;
  free(ptr: Ptr): void;
  FPDF_InitLibrary(): void;
  FPDF_LoadMemDocument(data: Ptr, size: number, password: Ptr): Ptr;
  FPDF_CloseDocument(doc: Ptr): void;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: Ptr): number;
  FPDF_LoadPage(doc: Ptr, index: number): Ptr;
  FPDF_ClosePage(page: Ptr): void;
  FPDF_GetPageBoundingBox(page: Ptr, rect: Ptr): number;
  FPDFPage_GetRotation(page: Ptr): number;
  FPDF_GetPageWidthF(page: Ptr): number;
  FPDF_GetPageHeightF(page: Ptr): number;
  FPDFPage_CountObjects(page: Ptr): number;
  FPDFPage_GetObject(page: Ptr, index: number): Ptr;
  FPDFPageObj_GetType(object: Ptr): number;
  FPDFPageObj_GetBounds(object: Ptr, left: Ptr, bottom: Ptr, right: Ptr, top: Ptr): number;
  FPDFText_LoadPage(page: Ptr): Ptr;
  FPDFText_ClosePage(textPage: Ptr): void;
  FPDFText_CountChars(textPage: Ptr): number;
  FPDFText_GetUnicode(textPage: Ptr, index: number): number;
  FPDFText_IsGenerated(textPage: Ptr, index: number): number;
  FPDFText_IsHyphen(textPage: Ptr, index: number): number;
  FPDFText_GetTextObject(textPage: Ptr, index: number): Ptr;
  FPDFText_GetText(textPage: Ptr, start: number, count: number, buffer: Ptr): number;
  FPDFText_GetFontSize(textPage: Ptr, index: number): number;
  FPDFText_GetCharOrigin(textPage: Ptr, index: number, x: Ptr, y: Ptr): number;
  FPDFText_GetLooseCharBox(textPage: Ptr, index: number, rect: Ptr): number;
  FPDFText_GetCharBox(textPage: Ptr, index: number, left: Ptr, right: Ptr, bottom: Ptr, top: Ptr): number;
  FPDFText_GetMatrix(textPage: Ptr, index: number, matrix: Ptr): number;
  FPDFTextObj_GetFont(textObject: Ptr): Ptr;
  FPDFFont_GetAscent(font: Ptr, size: number, ascent: Ptr): number;
  FPDFFont_GetDescent(font: Ptr, size: number, descent: Ptr): number;
  FPDFPageObj_GetMatrix(object: Ptr, matrix: Ptr): number;
  FPDFFormObj_CountObjects(form: Ptr): number;
  FPDFFormObj_GetObject(form: Ptr, index: number): Ptr;
  FPDFPath_CountSegments(path: Ptr): number;
  FPDFPath_GetPathSegment(path: Ptr, index: number): Ptr;
  FPDFPath_GetDrawMode(path: Ptr, fillMode: Ptr, stroke: Ptr): number;
  FPDFPathSegment_GetPoint(segment: Ptr, x: Ptr, y: Ptr): number;
  FPDFPathSegment_GetType(segment: Ptr): number;
  FPDFPathSegment_GetClose(segment: Ptr): number;
  FPDFBitmap_Create(width: number, height: number, alpha: number): Ptr;
  FPDFBitmap_FillRect(bitmap: Ptr, left: number, top: number, width: number, height: number, color: number): number;
  FPDFBitmap_GetBuffer(bitmap: Ptr): Ptr;
  FPDFBitmap_GetStride(bitmap: Ptr): number;
  FPDFBitmap_Destroy(bitmap: Ptr): void;
  FPDF_RenderPageBitmap(bitmap: Ptr, page: Ptr, startX: number, startY: number, width: number, height: number, rotate: number, flags: number): void;
  FPDFFont_GetWeight(font: Ptr): number;
  FPDFFont_GetFlags(font: Ptr): number;
  FPDFFont_GetBaseFontName(font: Ptr, buffer: Ptr, length: number): number;
  FPDFBookmark_GetFirstChild(doc: Ptr, bookmark: Ptr): Ptr;
  FPDFBookmark_GetNextSibling(doc: Ptr, bookmark: Ptr): Ptr;
  FPDFBookmark_GetTitle(bookmark: Ptr, buffer: Ptr, length: number): number;
  FPDFBookmark_GetDest(doc: Ptr, bookmark: Ptr): Ptr;
  FPDFBookmark_GetAction(bookmark: Ptr): Ptr;
  FPDFAction_GetDest(doc: Ptr, action: Ptr): Ptr;
  FPDFDest_GetDestPageIndex(doc: Ptr, dest: Ptr): number;
}

/** An instantiated PDFium module with a scratch area for out-parameters. */
export interface Pdfium {
  x: PdfiumExports;
  /** 64 bytes of module memory for functions that write their results through pointers. */
  scratch: Ptr;
  /** Float32 view of the memory (renewed when the memory grows). */
  f32(): Float32Array;
  /** Float64 view of the memory (renewed when the memory grows). */
  f64(): Float64Array;
  /** Unsigned byte view of the memory (renewed when the memory grows). */
  u8(): Uint8Array;
}

// V8 optimizes a WebAssembly function once it has run for about this many bytes of code (its
// `--wasm-tiering-budget`, unless the command line set another).
const budgetArg = process.execArgv.find((a) => /^--wasm[-_]tiering[-_]budget=\d+$/.test(a));
const TIERING_BUDGET = budgetArg ? Number(budgetArg.split('=')[1]) : 1_800_000;
// A budget no document reaches: V8 never optimizes such a module's functions.
const NEVER = 2 ** 31 - 1;
// Whether V8 checks a WebAssembly function when first called rather than at compilation, as the
// command line says (off by default).
const LAZY_VALIDATION = process.execArgv.some((a) => /^--wasm[-_]lazy[-_]validation$/.test(a));

// This thread's compiled modules: the optimizing one (true) and the baseline one (false).
const compiled = new Map<boolean, Promise<WasmModule>>();
// Compilations run one after the other: each changes process-wide flags meanwhile.
let lastCompile: Promise<unknown> = Promise.resolve();

/**
 * The compiled PDFium module of this thread, compiled on first use. A `WebAssembly.Module` can be
 * posted to a worker thread, which then skips compiling it again.
 *
 * With `optimize: false`, a module whose code V8 never optimizes: compiling PDFium's hot functions
 * with TurboFan costs about 0.3 s of CPU on other threads (and, on a busy machine, several times
 * that in waiting), more than a short document's pages take in baseline code. V8 gives a module
 * its tiering budget when it compiles it, so the flag is changed for the compilation only (a
 * WebAssembly module compiled elsewhere in the process meanwhile would get it too).
 *
 * Either module is compiled with V8's lazy validation: a function is checked when it first runs,
 * not all of PDFium's 4 MB before the first page (which cost about half of the compilation; a
 * text extraction runs a small part of PDFium). The module is the one the package ships.
 */
export function compilePdfium(optimize = true): Promise<WasmModule> {
  let module = compiled.get(optimize);
  if (!module) {
    const require = createRequire(import.meta.url);
    const bytes = readFile(require.resolve('@hyzyla/pdfium/pdfium.wasm'));
    module = lastCompile.then(async () => {
      const wasm = await bytes;
      if (!optimize) setFlagsFromString(`--wasm-tiering-budget=${NEVER}`);
      if (!LAZY_VALIDATION) setFlagsFromString('--wasm-lazy-validation');
      try {
        return await wasmApi.compile(wasm);
      } finally {
        if (!optimize) setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
        if (!LAZY_VALIDATION) setFlagsFromString('--no-wasm-lazy-validation');
      }
    });
    lastCompile = module.catch(() => undefined);
    compiled.set(optimize, module);
  }
  return module;
}

/** Hands this thread an optimizing module compiled elsewhere (by the thread that started it), or its coming. */
export function adoptCompiledPdfium(module: WasmModule | Promise<WasmModule>): void {
  if (!compiled.has(true)) compiled.set(true, Promise.resolve(module));
}

/**
 * Instantiates PDFium: a fresh instance with its own memory, of the optimizing module or (with
 * `optimize: false`) the baseline one. Instances are cheap next to the compilation (shared per
 * thread); one is dropped after a trap, which can leave its memory in any state.
 */
export async function instantiatePdfium(optimize = true): Promise<Pdfium> {
  const module = await compilePdfium(optimize);
  const runtime = emscriptenRuntime();
  const instance = await wasmApi.instantiate(module, runtime.imports);
  const x = instance.exports as PdfiumExports & EmscriptenExports;
  runtime.start(x);
  x.FPDF_InitLibrary();
  const scratch = x.malloc(64);
  let f32 = new Float32Array(x.memory.buffer);
  let f64 = new Float64Array(x.memory.buffer);
  let u8 = new Uint8Array(x.memory.buffer);
  // Growing the memory detaches the old buffer, which empties its views: testing a view's length
  // costs far less than reading `memory.buffer`, and the views are read once or twice a character.
  const renew = (): void => {
    if (f64.length !== 0) return;
    const buffer = x.memory.buffer;
    f32 = new Float32Array(buffer);
    f64 = new Float64Array(buffer);
    u8 = new Uint8Array(buffer);
  };
  return {
    x,
    scratch,
    f32: () => (renew(), f32),
    f64: () => (renew(), f64),
    u8: () => (renew(), u8),
  };
}
