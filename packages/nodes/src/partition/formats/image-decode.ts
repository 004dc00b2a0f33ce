import type { Canvas } from '@napi-rs/canvas';
import { isQuarryError, quarryError } from '@quarry/core';

// Guards against decompression bombs: a 600 dpi A0 scan is about 20000 x 28000.
const MAX_PIXELS = 400_000_000;

/** One page of an image file, decoded, as a canvas. */
export interface DecodedPage {
  canvas: Canvas;
  width: number;
  height: number;
}

// A little- or big-endian TIFF header.
function isTiff(b: Uint8Array): boolean {
  return (b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a);
}

/**
 * Decodes an image file into page canvases: every full-resolution page of a TIFF, or the one image
 * of a PNG/JPEG/GIF/WebP/BMP on a white background. Throws FILE_UNREADABLE for undecodable bytes or
 * an image over the pixel limit.
 */
export async function decodeImagePages(bytes: Uint8Array, filename: string): Promise<DecodedPage[]> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const unreadable = (e: unknown): Error =>
    quarryError('FILE_UNREADABLE', `${filename}: not a readable image (${e instanceof Error ? e.message : String(e)})`, {
      cause: e,
      details: { filename },
    });
  const checkSize = (width: number, height: number): void => {
    if (!(width > 0 && height > 0)) throw unreadable(new Error('the image has no pixels'));
    if (width * height > MAX_PIXELS) throw unreadable(new Error(`${width} x ${height} pixels is more than the ${MAX_PIXELS} allowed`));
  };
  if (isTiff(bytes)) {
    const UTIF = (await import('utif2')).default;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let ifds: ReturnType<typeof UTIF.decode>;
    try {
      ifds = UTIF.decode(buffer);
    } catch (e) {
      throw unreadable(e);
    }
    const pages: DecodedPage[] = [];
    // Reduced-resolution images (thumbnails, NewSubfileType bit 0) are not pages.
    for (const ifd of ifds.filter((d) => !((Number((d.t254 as number[] | undefined)?.[0] ?? 0) & 1)))) {
      try {
        UTIF.decodeImage(buffer, ifd);
        checkSize(ifd.width, ifd.height);
        const rgba = UTIF.toRGBA8(ifd);
        const canvas = createCanvas(ifd.width, ifd.height);
        const ctx = canvas.getContext('2d');
        const data = ctx.createImageData(ifd.width, ifd.height);
        data.data.set(rgba.subarray(0, data.data.length));
        ctx.putImageData(data, 0, 0);
        pages.push({ canvas, width: ifd.width, height: ifd.height });
      } catch (e) {
        if (isQuarryError(e)) throw e;
        throw unreadable(e);
      }
    }
    if (pages.length === 0) throw unreadable(new Error('the TIFF file holds no image'));
    return pages;
  }
  let image: Awaited<ReturnType<typeof loadImage>>;
  try {
    image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } catch (e) {
    throw unreadable(e);
  }
  checkSize(image.width, image.height);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  // Transparent pixels would otherwise become black behind black text.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, image.width, image.height);
  ctx.drawImage(image, 0, 0);
  return [{ canvas, width: image.width, height: image.height }];
}
