/**
 * Page images for the vision model: PDF pages rendered to PNG, and image files sent as they are
 * when the providers accept them (PNG, JPEG within size limits), re-encoded to PNG otherwise.
 */
import type { ImagePart } from '../../providers/types.js';
import type { PdfPage } from '../formats/pdf/pdfjs/load.js';
import { decodeFailure, openImage } from '../formats/image/decode.js';
import type { ImageFormat } from '../formats/image/header.js';
import { renderPage } from '../formats/pdf/pdfjs/render.js';

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

/** True for the formats whose files vision APIs take as they are. */
function isInlineFormat(format: ImageFormat): format is 'png' | 'jpeg' {
  return format === 'png' || format === 'jpeg';
}

/**
 * The pages of an image file as images a vision API accepts: a PNG or JPEG of acceptable size as
 * is (once it has decoded); anything else (TIFF pages, GIF, WebP, BMP, oversized images) decoded
 * page by page, scaled to a long side of at most {@link MAX_LONG_SIDE} on white and encoded as PNG.
 *
 * @throws FILE_TOO_LARGE for a page over the pixel limit (read from the header, before decoding);
 * FILE_UNREADABLE for undecodable bytes.
 */
export async function imageFileParts(bytes: Uint8Array, filename: string): Promise<ImagePart[]> {
  const image = await openImage(bytes, filename);
  const { format, pages } = image.header;
  const first = pages[0]!;
  if (isInlineFormat(format) && bytes.length <= MAX_INLINE_BYTES && first.width <= MAX_SIDE && first.height <= MAX_SIDE) {
    // Decoded (to statistics only) so that a corrupt file fails here, not at the provider.
    await (await image.pipeline(first)).stats().catch((e: unknown) => {
      throw decodeFailure(filename, e);
    });
    return [{ type: 'image', mimeType: format === 'png' ? 'image/png' : 'image/jpeg', data: Buffer.from(bytes).toString('base64') }];
  }
  const parts: ImagePart[] = [];
  // One page at a time: a multi-page TIFF never holds more than one decoded page.
  for (const page of pages) {
    const resized = (await image.pipeline(page)).resize({ width: MAX_LONG_SIDE, height: MAX_LONG_SIDE, fit: 'inside', withoutEnlargement: true });
    const png = await resized
      .png()
      .toBuffer()
      .catch((e: unknown) => {
        throw decodeFailure(filename, e);
      });
    parts.push({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
  }
  return parts;
}
