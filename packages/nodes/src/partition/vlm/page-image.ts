/**
 * Page images for the vision model: PDF pages rendered to PNG, and image files sent as they are
 * when the providers accept them (PNG, JPEG within size limits), re-encoded to PNG otherwise.
 */
import { quarryError } from '@quarry/core';
import type { ImagePart } from '../../providers/types.js';
import type { PdfPage } from '../formats/pdf-load.js';
import { decodeImagePages } from '../formats/image-decode.js';
import { renderPage } from '../formats/pdf-render.js';

// Vision APIs scale larger images down to about this long side (Anthropic: 1568 px), so rendering
// more only costs upload time and tokens.
const MAX_LONG_SIDE = 1568;
// Highest rendering resolution for small pages.
const MAX_DPI = 200;
// Largest image any of the four APIs takes inline (Anthropic: 5 MB per image), with margin.
const MAX_INLINE_BYTES = 4_500_000;
const MAX_SIDE = 7_900;

/** Renders a PDF page to a PNG whose long side is at most {@link MAX_LONG_SIDE} pixels. */
export async function renderPagePng(page: PdfPage, signal?: AbortSignal): Promise<ImagePart> {
  const viewport = page.getViewport({ scale: 1 });
  const longSide = Math.max(viewport.width, viewport.height, 1);
  const dpi = Math.min(MAX_DPI, (MAX_LONG_SIDE * 72) / longSide);
  const rendered = await renderPage(page, dpi, signal);
  const png = await rendered.canvas.encode('png');
  return { type: 'image', mimeType: 'image/png', data: Buffer.from(png).toString('base64') };
}

function isPng(b: Uint8Array): boolean {
  return b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47;
}
function isJpeg(b: Uint8Array): boolean {
  return b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}

/**
 * The pages of an image file as images a vision API accepts: a PNG or JPEG of acceptable size as
 * is; anything else (TIFF pages, GIF, WebP, BMP, oversized images) decoded, scaled to a long side
 * of at most {@link MAX_LONG_SIDE} and encoded as PNG. Throws FILE_UNREADABLE for undecodable bytes.
 */
export async function imageFileParts(bytes: Uint8Array, filename: string): Promise<ImagePart[]> {
  if ((isPng(bytes) || isJpeg(bytes)) && bytes.length <= MAX_INLINE_BYTES) {
    const { loadImage } = await import('@napi-rs/canvas');
    const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).catch((e: unknown) => {
      throw unreadable(filename, e);
    });
    if (image.width <= MAX_SIDE && image.height <= MAX_SIDE) {
      return [{ type: 'image', mimeType: isPng(bytes) ? 'image/png' : 'image/jpeg', data: Buffer.from(bytes).toString('base64') }];
    }
  }
  const { createCanvas } = await import('@napi-rs/canvas');
  const pages = await decodeImagePages(bytes, filename);
  return Promise.all(
    pages.map(async (s) => {
      const scale = Math.min(1, MAX_LONG_SIDE / Math.max(s.width, s.height));
      const w = Math.max(1, Math.round(s.width * scale));
      const h = Math.max(1, Math.round(s.height * scale));
      const canvas = createCanvas(w, h);
      const ctx = canvas.getContext('2d');
      // Transparent pixels would otherwise reach the model as black.
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, w, h);
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(s.canvas, 0, 0, w, h);
      const png = await canvas.encode('png');
      return { type: 'image' as const, mimeType: 'image/png' as const, data: Buffer.from(png).toString('base64') };
    }),
  );
}

function unreadable(filename: string, e: unknown): Error {
  return quarryError('FILE_UNREADABLE', `${filename}: not a readable image (${e instanceof Error ? e.message : String(e)})`, { cause: e, details: { filename } });
}
