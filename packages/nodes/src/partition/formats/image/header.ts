/**
 * The size of every page of an image file, read from its header before any decoder sees the
 * bytes: a hostile header can claim billions of pixels over a few bytes of data, and decoders
 * allocate what the header claims.
 */
import { quarryError } from '@quarry/core/errors';
import { imageSize } from 'image-size';
import { limitError, partitionLimits, type PartitionLimits } from '../../limits.js';

/** The raster formats quarry decodes. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'tiff';

/** One page of an image file: a TIFF directory, or the one image of the other formats. */
export interface ImagePage {
  /** The page's index for the decoder: its TIFF directory in the file's chain, 0 otherwise. */
  index: number;
  width: number;
  height: number;
}

/** What an image file's header says. */
export interface ImageHeader {
  format: ImageFormat;
  /** The pages to read, in order; TIFF thumbnails (reduced-resolution directories) are not pages. */
  pages: ImagePage[];
}

// image-size's names of the formats quarry decodes.
const FORMATS: Readonly<Record<string, ImageFormat>> = { png: 'png', jpg: 'jpeg', gif: 'gif', webp: 'webp', bmp: 'bmp', tiff: 'tiff', bigtiff: 'tiff' };

/** FILE_UNREADABLE for an image file, with the reason in words. */
export function unreadableImage(filename: string, reason: string, cause?: unknown): Error {
  return quarryError('FILE_UNREADABLE', `${filename}: not a readable image (${reason})`, { cause, details: { filename } });
}

/**
 * Reads the format and the size of every page (every directory of a TIFF, every frame of a GIF)
 * from the header, without decoding pixels, and refuses a page over `maxImagePixels`.
 *
 * @throws FILE_TOO_LARGE for a page over the pixel limit; FILE_UNREADABLE when the header cannot be
 * read or the format is not PNG, JPEG, GIF, WebP, BMP or TIFF.
 */
export function readImageHeader(bytes: Uint8Array, filename: string, limits: PartitionLimits = partitionLimits()): ImageHeader {
  let size: ReturnType<typeof imageSize>;
  try {
    // image-size reads through a DataView of the whole underlying buffer, past the end of a view
    // (a pooled Buffer, a slice): give it bytes that own their buffer.
    size = imageSize(bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice());
  } catch (e) {
    const known = /unsupported file type: (\w+)/.exec(e instanceof Error ? e.message : '')?.[1];
    throw unreadableImage(
      filename,
      known && known !== 'undefined'
        ? `${known.toUpperCase()} images are not read, only PNG, JPEG, GIF, WebP, BMP and TIFF`
        : 'its header is damaged or it is not an image',
      e,
    );
  }
  const format = FORMATS[size.type ?? ''];
  if (!format) throw unreadableImage(filename, `${(size.type ?? 'this format').toUpperCase()} images are not read, only PNG, JPEG, GIF, WebP, BMP and TIFF`);
  let pages: ImagePage[];
  if (format === 'tiff') pages = tiffPages(bytes, filename);
  else if (format === 'gif') pages = [gifExtent(bytes, filename)];
  else pages = [{ index: 0, width: size.width, height: size.height }];
  for (const page of pages) {
    if (!(page.width > 0 && page.height > 0)) throw unreadableImage(filename, 'its header gives it no pixels');
    const pixels = page.width * page.height;
    if (pixels > limits.maxImagePixels) throw limitError('FILE_TOO_LARGE', 'maxImagePixels', filename, pixels, limits);
  }
  if (pages.length === 0) throw unreadableImage(filename, 'the TIFF file holds no image');
  return { format, pages };
}

// ---------------------------------------------------------------------------------------------
// TIFF: image-size reads the first directory only, and utif2's parser follows directory loops
// and trusts value counts, so the chain is walked here, reading just the tags that size a page.
// ---------------------------------------------------------------------------------------------

const TAG_NEW_SUBFILE_TYPE = 254;
const TAG_WIDTH = 256;
const TAG_HEIGHT = 257;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;
const TYPE_LONG8 = 16;

/** The pages of a TIFF (classic or BigTIFF): the directories of its chain that are not thumbnails. */
function tiffPages(bytes: Uint8Array, filename: string): ImagePage[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = bytes[0] === 0x49;
  const big = view.getUint16(2, le) === 43;
  const damaged = (what: string): Error => unreadableImage(filename, `its TIFF header is damaged: ${what}`);
  const offsetAt = (at: number): number => {
    if (at + (big ? 8 : 4) > bytes.byteLength) throw damaged('a directory offset runs past the end of the file');
    return big ? Number(view.getBigUint64(at, le)) : view.getUint32(at, le);
  };
  const entrySize = big ? 20 : 12;
  const countSize = big ? 8 : 2;
  // Directories cannot hold more entries than the file has room for; overlapping ones could.
  let entryBudget = Math.floor(bytes.byteLength / entrySize);
  const seen = new Set<number>();
  const pages: ImagePage[] = [];
  for (let index = 0, at = offsetAt(big ? 8 : 4); at !== 0; index++) {
    if (seen.has(at)) throw damaged('its directories form a loop');
    seen.add(at);
    if (at + countSize > bytes.byteLength) throw damaged('a directory lies past the end of the file');
    const count = big ? Number(view.getBigUint64(at, le)) : view.getUint16(at, le);
    entryBudget -= count;
    if (entryBudget < 0 || at + countSize + count * entrySize > bytes.byteLength) throw damaged('a directory runs past the end of the file');
    const tags = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const e = at + countSize + i * entrySize;
      const tag = view.getUint16(e, le);
      const type = view.getUint16(e + 2, le);
      const valueAt = e + (big ? 12 : 8);
      if (tag !== TAG_NEW_SUBFILE_TYPE && tag !== TAG_WIDTH && tag !== TAG_HEIGHT) continue;
      if (type === TYPE_SHORT) tags.set(tag, view.getUint16(valueAt, le));
      else if (type === TYPE_LONG) tags.set(tag, view.getUint32(valueAt, le));
      else if (type === TYPE_LONG8 && big) tags.set(tag, Number(view.getBigUint64(valueAt, le)));
    }
    // NewSubfileType bit 0 marks a reduced-resolution copy of another page.
    if (((tags.get(TAG_NEW_SUBFILE_TYPE) ?? 0) & 1) === 0) {
      pages.push({ index, width: tags.get(TAG_WIDTH) ?? 0, height: tags.get(TAG_HEIGHT) ?? 0 });
    }
    at = offsetAt(at + countSize + count * entrySize);
  }
  return pages;
}

// ---------------------------------------------------------------------------------------------
// GIF: image-size reads the logical screen only, and a frame may reach past it (decoders then
// grow the image to hold it), so every frame's descriptor is read.
// ---------------------------------------------------------------------------------------------

/** The extent of a GIF: its logical screen, grown to hold every frame. */
function gifExtent(bytes: Uint8Array, filename: string): ImagePage {
  const damaged = (): Error => unreadableImage(filename, 'its GIF structure is damaged');
  const u16 = (at: number): number => {
    if (at + 2 > bytes.byteLength) throw damaged();
    return bytes[at]! | (bytes[at + 1]! << 8);
  };
  const colorTable = (flags: number): number => (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  // Data sub-blocks: a length byte and that many bytes, until a length of 0. Data cut short
  // ends the walk; whether a truncated frame is an error is the decoder's call.
  const skipSubBlocks = (from: number): number => {
    let at = from;
    while (at < bytes.byteLength && bytes[at] !== 0) at += bytes[at]! + 1;
    return at + 1;
  };
  let width = u16(6);
  let height = u16(8);
  let at = 13 + colorTable(bytes[10] ?? 0);
  let frames = 0;
  // A GIF cut short after its first frame still shows that frame; decoders take it.
  while (at < bytes.byteLength && bytes[at] !== 0x3b) {
    const block = bytes[at];
    if (block === 0x21) {
      at = skipSubBlocks(at + 2);
    } else if (block === 0x2c) {
      width = Math.max(width, u16(at + 1) + u16(at + 5));
      height = Math.max(height, u16(at + 3) + u16(at + 7));
      frames++;
      at = skipSubBlocks(at + 10 + colorTable(bytes[at + 9] ?? 0) + 1);
    } else {
      if (frames > 0) break;
      throw damaged();
    }
  }
  return { index: 0, width, height };
}
