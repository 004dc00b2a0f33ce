/**
 * Rendering PDF pages to pixels with pdf.js on `@napi-rs/canvas` (hi_res): whole pages for OCR, and
 * PNG crops of element regions for `extract_image_block_types`.
 */
import type { Canvas } from '@napi-rs/canvas';
import type { Box } from '../layout-types.js';
import { MAX_OCR_PIXELS } from '../../../limits.js';
import { luma } from '../../../luma.js';
import { takeOutRulings } from '../../../raster-rulings.js';
import { boundedDpi } from '../render-size.js';
import { PdfOpenError, type PdfPage } from './load.js';
import { importOptional } from '../../../../optional-dependency.js';

/** A page rendered at some resolution. */
export interface RenderedPage {
  canvas: Canvas;
  /** Pixel size. */
  width: number;
  height: number;
  /** Pixels per point (`dpi / 72`). */
  scale: number;
}

/** @napi-rs/canvas, an optional peer: OCR of PDF pages, region images and page pictures need it. */
export function loadCanvas(): Promise<typeof import('@napi-rs/canvas')> {
  return importOptional<typeof import('@napi-rs/canvas')>('@napi-rs/canvas', 'rendering PDF pages (OCR, page and region images)');
}

const GREY_BAND_ROWS = 256;

/** The resolution pages are rendered at for OCR and region images (`unstructured`'s 200 dpi). */
export const RENDER_DPI = 200;

/**
 * Renders a page (with its `/Rotate`) on a white background, at `dpi` or the lower resolution at
 * which it has at most `MAX_OCR_PIXELS` pixels (`scale` says which). Aborting the signal cancels the render task.
 */
export async function renderPage(page: PdfPage, dpi: number, signal?: AbortSignal): Promise<RenderedPage> {
  const { createCanvas } = await loadCanvas();
  const size = page.getViewport({ scale: 1 });
  const scale = boundedDpi(size.width, size.height, dpi, MAX_OCR_PIXELS) / 72;
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // pdf.js types its canvas parameters with DOM types; @napi-rs/canvas implements the same API.
  const task = page.render({ canvas: null, canvasContext: context as never, viewport, background: 'rgb(255,255,255)' } as never);
  const onAbort = (): void => task.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await task.promise;
  } catch (e) {
    if (signal?.aborted) throw new PdfOpenError('aborted', 'aborted while rendering the PDF', { cause: signal.reason });
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return { canvas, width, height, scale };
}

/**
 * The rendered page as a binary greyscale PNM (P5) image for OCR, its ruling lines painted out
 * (see `ruling-lines.ts`): Tesseract reads it directly, which saves the quarter second a PNG
 * encoding of a 200 dpi page costs. `rulings` are the ruling lines read from the picture before
 * they were painted out (`raster-rulings.ts`), in page points: a scanned table's grid. `grey` is
 * the image's pixels, one luma byte each: a view into `pnm` after its header.
 */
export function toGreyPnm(page: RenderedPage): { pnm: Uint8Array; grey: Uint8Array; rulings: Box[] } {
  const header = new TextEncoder().encode(`P5\n${page.width} ${page.height}\n255\n`);
  const out = new Uint8Array(header.length + page.width * page.height);
  out.set(header, 0);
  const context = page.canvas.getContext('2d');
  // Band by band: the RGBA copy of a whole 20 M-pixel page is 80 MB more, twice (Skia's and ours).
  for (let top = 0; top < page.height; top += GREY_BAND_ROWS) {
    const rows = Math.min(GREY_BAND_ROWS, page.height - top);
    const { data } = context.getImageData(0, top, page.width, rows);
    for (let i = 0, j = header.length + top * page.width; i < data.length; i += 4, j++) {
      out[j] = luma(data[i]!, data[i + 1]!, data[i + 2]!);
    }
  }
  const grey = out.subarray(header.length);
  const k = page.scale;
  const found = takeOutRulings(grey, page.width, page.height, 1);
  return { pnm: out, grey, rulings: found.map((r) => ({ x0: r.x0 / k, y0: r.y0 / k, x1: r.x1 / k, y1: r.y1 / k })) };
}

/**
 * Frees the rendered page's pixels now instead of when the canvas is garbage-collected (80 MB for
 * a 20 M-pixel page, while Tesseract reads the copy made of it). The page cannot be read after.
 */
export function releaseRendered(page: RenderedPage): void {
  page.canvas.width = 1;
  page.canvas.height = 1;
}

/** A region (page points) of the rendered page as PNG bytes, with `pad` points of margin. */
export async function cropPng(page: RenderedPage, box: Box, pad = 2): Promise<Uint8Array> {
  const { createCanvas } = await loadCanvas();
  const x0 = Math.max(0, Math.floor((box.x0 - pad) * page.scale));
  const y0 = Math.max(0, Math.floor((box.y0 - pad) * page.scale));
  const x1 = Math.min(page.width, Math.ceil((box.x1 + pad) * page.scale));
  const y1 = Math.min(page.height, Math.ceil((box.y1 + pad) * page.scale));
  const w = Math.max(1, x1 - x0);
  const h = Math.max(1, y1 - y0);
  const crop = createCanvas(w, h);
  crop.getContext('2d').drawImage(page.canvas, x0, y0, w, h, 0, 0, w, h);
  return crop.encode('png');
}
