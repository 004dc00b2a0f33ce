/**
 * Page pictures for the inspection report: PDF pages rendered with the pdf.js engine of the
 * fast/hi_res paths, image files (every TIFF page) decoded with sharp, both scaled down and encoded
 * as JPEG so that the report stays small enough to open and mail.
 */
import { isQuarryError } from '@quarry/core';
import { renderPage } from '../partition/formats/pdf/pdfjs/render.js';
import { withPdf } from '../partition/formats/pdf/pdfjs/load.js';
import { toQuarryError } from '../partition/formats/pdf/index.js';
import { decodeFailure, openImage } from '../partition/formats/image/decode.js';
import { readImageHeader } from '../partition/formats/image/header.js';

/** One page picture, ready to inline. */
export interface PageImage {
  /** 1-based page number, as in `metadata.page_number`. */
  page: number;
  /** Pixel size of the picture. */
  width: number;
  height: number;
  /** A `data:image/jpeg;base64,...` URL. */
  dataUrl: string;
}

/** The pictures of a document's first pages, and how many pages it has. */
export interface PageImages {
  images: PageImage[];
  /** Pages in the document (more than `images.length` when `maxPages` cut it short). */
  totalPages: number;
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
  return { images: [], totalPages: 0 };
}

async function pdfPageImages(bytes: Uint8Array, filename: string, options: PageImageOptions): Promise<PageImages> {
  try {
    return await withPdf(bytes, {}, async (doc) => {
      const images: PageImage[] = [];
      const count = Math.min(doc.numPages, options.maxPages);
      for (let n = 1; n <= count; n++) {
        const page = await doc.getPage(n);
        try {
          const viewport = page.getViewport({ scale: 1 });
          // Large pages (posters, drawings) are rendered at less than `dpi` to stay within maxSide.
          const dpi = Math.min(options.dpi, (options.maxSide * 72) / Math.max(viewport.width, viewport.height, 1));
          const rendered = await renderPage(page, dpi);
          const jpeg = await rendered.canvas.encode('jpeg', options.quality);
          images.push({ page: n, width: rendered.width, height: rendered.height, dataUrl: jpegUrl(jpeg) });
        } finally {
          page.cleanup();
        }
      }
      return { images, totalPages: doc.numPages };
    });
  } catch (e) {
    throw toQuarryError(e, filename);
  }
}

async function imageFilePages(bytes: Uint8Array, filename: string, options: PageImageOptions): Promise<PageImages> {
  const image = await openImage(bytes, filename);
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
  return { images, totalPages: pages.length };
}
