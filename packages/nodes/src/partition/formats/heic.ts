import { errorMessage, isQuarryError } from '@quarry/core/errors';
import { importOptional } from '../../optional-dependency.js';
import { limitError, partitionLimits } from '../limits.js';
import type { FormatPartitioner } from '../types.js';
import { unreadableImage } from './image/header.js';

/** The part of `heic-decode` used here: the images of a file, each decoded to RGBA on demand. */
interface HeicDecode {
  all(input: {
    buffer: Uint8Array;
  }): Promise<Array<{ width: number; height: number; decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }> }> & { dispose(): void }>;
}

/**
 * HEIC/HEIF photos (`.heic`): the primary image is decoded with `heic-decode` (libheif compiled to
 * WebAssembly, an optional package: `npm install heic-decode`), after its size is checked against
 * `QUARRY_MAX_IMAGE_PIXELS`, and read as any image: OCR, layout, `image` elements, one page.
 */
export const heicPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const mod = await importOptional<{ default: HeicDecode } | HeicDecode>('heic-decode', 'reading HEIC images');
    const heic = 'default' in mod ? mod.default : mod;
    let images: Awaited<ReturnType<HeicDecode['all']>>;
    try {
      images = await heic.all({ buffer: bytes });
    } catch (e) {
      throw unreadableImage(options.filename, `not a readable HEIC image (${errorMessage(e)})`, e);
    }
    let rgba: { width: number; height: number; data: Uint8ClampedArray };
    try {
      const primary = images[0]!;
      const limits = partitionLimits();
      if (primary.width * primary.height > limits.maxImagePixels)
        throw limitError('FILE_TOO_LARGE', 'maxImagePixels', options.filename, primary.width * primary.height, limits);
      rgba = await primary.decode();
    } catch (e) {
      throw isQuarryError(e) ? e : unreadableImage(options.filename, `its HEIC pixel data cannot be decoded (${errorMessage(e)})`, e);
    } finally {
      images.dispose();
    }
    const { PNG } = await import('pngjs');
    const png = PNG.sync.write({
      width: rgba.width,
      height: rgba.height,
      data: Buffer.from(rgba.data.buffer, rgba.data.byteOffset, rgba.data.byteLength),
    } as InstanceType<typeof PNG>);
    const { imagePartitioner } = await import('./image/index.js');
    return imagePartitioner.partition(new Uint8Array(png), options);
  },
};
