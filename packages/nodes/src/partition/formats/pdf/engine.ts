/**
 * The engines that read a PDF's text layer for the `fast` strategy (and the text layer that
 * `hi_res` starts from): PDFium compiled to WebAssembly, or pdf.js. Both feed the same layout,
 * classification and element code.
 *
 * This file must not import `@quarry/core`: the page worker thread loads it.
 */

/** A PDF text engine: `pdfium` (PDFium in WebAssembly) or `pdfjs` (Mozilla's pdf.js). */
export type PdfEngine = 'pdfium' | 'pdfjs';

/** Every engine, in the order a help text lists them. */
export const PDF_ENGINES = ['pdfium', 'pdfjs'] as const satisfies readonly PdfEngine[];

/** The engine used when a request names none. */
export const DEFAULT_PDF_ENGINE: PdfEngine = 'pdfium';
