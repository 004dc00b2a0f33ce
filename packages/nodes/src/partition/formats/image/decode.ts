/**
 * Decoding image files that may be hostile. The header is read first (`image-header.ts`) and a page
 * over the pixel limit is refused before any decoder runs; pages are then decoded by libvips
 * (`sharp`), which fails with an error on corrupt or truncated data instead of crashing the process
 * as Skia's decoders in `@napi-rs/canvas` do, and BMP (which libvips does not read) in JavaScript.
 */
import { decode as decodeBmp } from 'bmp-ts';
import type { default as SharpFactory, Sharp, SharpOptions } from 'sharp';
import { isQuarryError } from '@quarry/core/errors';
import { partitionLimits } from '../../limits.js';
import { readImageHeader, unreadableImage, type ImageHeader, type ImagePage } from './header.js';
import { importOptional } from '../../../optional-dependency.js';

/** One page of an image file, decoded: 8-bit RGBA, transparent pixels laid on white. */
export interface DecodedPage {
  rgba: Buffer;
  width: number;
  height: number;
}

/** An image file whose header passed the pixel limit, ready to decode page by page. */
export interface OpenedImage {
  header: ImageHeader;
  /**
   * A sharp pipeline that reads `page` laid on a white background: chain resizing or encoding
   * onto it, and wrap the error of its output step with {@link decodeFailure}.
   */
  pipeline(page: ImagePage): Promise<Sharp>;
}

const WHITE = { r: 255, g: 255, b: 255 };

let sharpModule: Promise<typeof SharpFactory> | undefined;

/**
 * sharp, loaded on first use (it loads libvips), with libvips' operation cache off: a
 * partitioning process decodes each image once, and the cache would keep its buffers.
 */
export function loadSharp(): Promise<typeof SharpFactory> {
  sharpModule ??= importOptional<{ default: typeof SharpFactory } | typeof SharpFactory>('sharp', 'decoding images (image files, page images)').then((m) => {
    // A CommonJS module: its namespace's default export is the function.
    const sharp = 'default' in m ? m.default : m;
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

/** The error for a page the decoder gave up on: FILE_UNREADABLE with the decoder's reason. */
export function decodeFailure(filename: string, e: unknown): Error {
  if (isQuarryError(e)) return e;
  return unreadableImage(filename, e instanceof Error ? e.message : String(e), e);
}

/**
 * Reads the header of an image file and refuses it when a page is over `maxImagePixels`; the pages
 * are decoded only when {@link OpenedImage.pipeline} runs.
 *
 * @throws FILE_TOO_LARGE or FILE_UNREADABLE, as {@link readImageHeader}.
 */
export async function openImage(bytes: Uint8Array, filename: string): Promise<OpenedImage> {
  const limits = partitionLimits();
  const header = readImageHeader(bytes, filename, limits);
  const sharp = await loadSharp();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    header,
    async pipeline(page) {
      if (header.format === 'bmp') {
        const { rgba, width, height } = bmpPage(input, filename);
        return sharp(rgba, { raw: { width, height, channels: 4 } });
      }
      const options: SharpOptions = {
        // The header was checked; this stops a decoder that finds a larger image than it said.
        limitInputPixels: limits.maxImagePixels,
        // Truncated or corrupt pixel data is an error, not a page of gray.
        failOn: 'error',
        page: page.index,
        pages: 1,
      };
      return sharp(input, options).flatten({ background: WHITE });
    },
  };
}

/**
 * Decodes an image file page by page: every full-resolution page of a TIFF, or the one image of a
 * PNG/JPEG/GIF (its first frame)/WebP/BMP, each as RGBA on white. All pages are checked against
 * the pixel limit before the first is decoded, and each is decoded only when asked for, so a
 * multi-page TIFF holds one page at a time.
 *
 * @throws FILE_TOO_LARGE for a page over `maxImagePixels` (before any decoding); FILE_UNREADABLE
 * for a header or pixel data that cannot be read.
 */
export async function* decodeImagePages(bytes: Uint8Array, filename: string): AsyncGenerator<DecodedPage> {
  const image = await openImage(bytes, filename);
  if (image.header.format === 'bmp') {
    yield bmpPage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), filename);
    return;
  }
  for (const page of image.header.pages) {
    let decoded: { data: Buffer; info: { width: number; height: number; channels: number } };
    try {
      // 8-bit sRGB with alpha whatever the source (gray, CMYK, 16-bit, palette).
      decoded = await (await image.pipeline(page)).toColourspace('srgb').ensureAlpha(1).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    } catch (e) {
      throw decodeFailure(filename, e);
    }
    const { data, info } = decoded;
    if (info.channels !== 4 || data.byteLength !== info.width * info.height * 4) {
      throw unreadableImage(filename, `the decoder gave ${info.channels} channels of ${info.width} x ${info.height} pixels`);
    }
    yield { rgba: data, width: info.width, height: info.height };
  }
}

/**
 * A BMP decoded in JavaScript (libvips reads no BMP): bmp-ts gives ABGR, turned here, in place,
 * into RGBA on white. Its alpha counts only in 32-bit files that use it; other depths leave it 0.
 */
function bmpPage(input: Buffer, filename: string): DecodedPage {
  let bmp: ReturnType<typeof decodeBmp>;
  try {
    bmp = decodeBmp(input);
  } catch (e) {
    throw decodeFailure(filename, e);
  }
  const { data, width, height } = bmp;
  if (data.byteLength !== width * height * 4) throw unreadableImage(filename, 'its BMP pixel data does not match its size');
  let hasAlpha = false;
  if (bmp.bitPP === 32) for (let i = 0; i < data.byteLength && !hasAlpha; i += 4) hasAlpha = data[i] !== 0;
  for (let i = 0; i < data.byteLength; i += 4) {
    const a = hasAlpha ? data[i]! : 255;
    const b = data[i + 1]!;
    const g = data[i + 2]!;
    const r = data[i + 3]!;
    // Alpha-blend over white: c * a + 255 * (1 - a).
    data[i] = Math.round((r * a + 255 * (255 - a)) / 255);
    data[i + 1] = Math.round((g * a + 255 * (255 - a)) / 255);
    data[i + 2] = Math.round((b * a + 255 * (255 - a)) / 255);
    data[i + 3] = 255;
  }
  return { rgba: data, width, height };
}
