/**
 * Page pictures for the inspection report: PDF pages rendered with PDFium (a dependency, so no
 * canvas package is needed), image files (every TIFF page) decoded with sharp; scaled down and
 * encoded as JPEG with sharp when it is installed, as PNG (pngjs) otherwise, so that the report
 * stays small enough to open and mail. A page that cannot be pictured is left blank with a warning.
 */
import { isQuarryError } from '@quarry/core';
import { PNG } from 'pngjs';
import { MAX_OCR_PIXELS } from '../partition/limits.js';
import { PdfiumDocument } from '../partition/formats/pdf/pdfium/document.js';
import type { PdfiumBitmap } from '../partition/formats/pdf/pdfium/render.js';
import { toQuarryError } from '../partition/formats/pdf/index.js';
import { decodeFailure, loadSharp, openImage } from '../partition/formats/image/decode.js';
import { readImageHeader } from '../partition/formats/image/header.js';

/** One page picture, ready to inline. */
export interface PageImage {
  /** 1-based page number, as in `metadata.page_number`. */
  page: number;
  /** Pixel size of the picture. */
  width: number;
  height: number;
  /** A `data:image/jpeg;base64,...` (or `image/png`) URL. */
  dataUrl: string;
}

/** The pictures of a document's first pages, and how many pages it has. */
export interface PageImages {
  images: PageImage[];
  /** Pages in the document (more than `images.length` when `maxPages` cut it short). */
  totalPages: number;
  /** Why pages have no picture (a page PDFium failed on, sharp missing for an image file). */
  warnings: string[];
}

/** Options of {@link renderPageImages}. */
export interface PageImageOptions {
  /** Render at most this many pages, from the first. */
  maxPages: number;
  /** Resolution of rendered PDF pages. */
  dpi: number;
  /** Longest side of a picture in pixels (image files are scaled to it). */
  maxSide: number;
  /** JPEG quality, 1-100. */
  quality: number;
}

const PDF_MAGIC = '%PDF-';

function isPdf(bytes: Uint8Array): boolean {
  // A PDF header may follow up to 1 KB of junk.
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes(PDF_MAGIC);
}

function isImage(bytes: Uint8Array, filename: string): boolean {
  try {
    readImageHeader(bytes, filename);
    return true;
  } catch (e) {
    // An image over the pixel limit is an image: opening it reports FILE_TOO_LARGE.
    return isQuarryError(e) && e.code === 'FILE_TOO_LARGE';
  }
}

function jpegUrl(jpeg: Uint8Array): string {
  return `data:image/jpeg;base64,${Buffer.from(jpeg).toString('base64')}`;
}

const reason = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A rendered page as a data URL: JPEG with sharp when it is installed, PNG otherwise. */
async function bitmapUrl(bitmap: PdfiumBitmap, quality: number): Promise<string> {
  const sharp = await loadSharp().catch(() => undefined);
  if (sharp) {
    const { width, height, rgba } = bitmap;
    return jpegUrl(
      await sharp(rgba, { raw: { width, height, channels: 4 } })
        .jpeg({ quality })
        .toBuffer(),
    );
  }
  const png = new PNG({ width: bitmap.width, height: bitmap.height });
  png.data = Buffer.from(bitmap.rgba.buffer, bitmap.rgba.byteOffset, bitmap.rgba.byteLength);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/**
 * Pictures of the pages of a PDF or an image file (PNG, JPEG, GIF, WebP, BMP, TIFF); no pictures for
 * any other format, which has no pages to show.
 *
 * @throws FILE_UNREADABLE, PDF_PASSWORD_REQUIRED or FILE_TOO_LARGE when the document cannot be
 * read, as partitioning would.
 */
export async function renderPageImages(bytes: Uint8Array, filename: string, options: PageImageOptions): Promise<PageImages> {
  // pdf.js refuses a Node Buffer.
  if (Buffer.isBuffer(bytes)) bytes = new Uint8Array(bytes);
  if (isPdf(bytes)) return pdfPageImages(bytes, filename, options);
  if (isImage(bytes, filename)) return imageFilePages(bytes, filename, options);
  return { images: [], totalPages: 0, warnings: [] };
}

async function pdfPageImages(bytes: Uint8Array, filename: string, options: PageImageOptions): Promise<PageImages> {
  let doc: PdfiumDocument;
  try {
    doc = await PdfiumDocument.open(bytes);
  } catch (e) {
    throw toQuarryError(e, filename);
  }
  try {
    const images: PageImage[] = [];
    const warnings: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, options.maxPages); n++) {
      try {
        // Large pages (posters, drawings) are rendered at less than `dpi` to stay within maxSide.
        const bitmap = await doc.render(n, options.dpi, MAX_OCR_PIXELS, options.maxSide);
        images.push({ page: n, width: bitmap.width, height: bitmap.height, dataUrl: await bitmapUrl(bitmap, options.quality) });
      } catch (e) {
        warnings.push(`page ${n} could not be pictured: ${reason(e)}`);
      }
    }
    return { images, totalPages: doc.numPages, warnings };
  } finally {
    doc.close();
  }
}

async function imageFilePages(bytes: Uint8Array, filename: string, options: PageImageOptions): Promise<PageImages> {
  let image: Awaited<ReturnType<typeof openImage>>;
  try {
    image = await openImage(bytes, filename);
  } catch (e) {
    // Without sharp the pages are drawn blank; anything else is the file's fault.
    if (isQuarryError(e) && e.code === 'OPTIONAL_DEPENDENCY_MISSING')
      return { images: [], totalPages: 0, warnings: [`the pages cannot be pictured: ${e.message}`] };
    throw e;
  }
  const { pages } = image.header;
  const images: PageImage[] = [];
  for (const page of pages.slice(0, options.maxPages)) {
    const resized = (await image.pipeline(page)).resize({ width: options.maxSide, height: options.maxSide, fit: 'inside', withoutEnlargement: true });
    const { data, info } = await resized
      .jpeg({ quality: options.quality })
      .toBuffer({ resolveWithObject: true })
      .catch((e: unknown) => {
        throw decodeFailure(filename, e);
      });
    images.push({ page: images.length + 1, width: info.width, height: info.height, dataUrl: jpegUrl(data) });
  }
  return { images, totalPages: pages.length, warnings: [] };
}
