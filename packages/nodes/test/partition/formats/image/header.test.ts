/**
 * The header check: pure JavaScript, so hostile headers are safe to read in the test process (no
 * decoder runs). Partitioning the same files, in child processes, is in `hostile-images.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { readImageHeader } from '../../../../src/partition/formats/image/header.js';
import { partitionLimits } from '../../../../src/partition/limits.js';
import {
  blackPng,
  hugeFrameGif,
  hugeHeaderBmp,
  hugeHeaderTiff,
  hugeHeaderWebp,
  hugeSecondPageTiff,
  validGrayJpeg,
  validPalettePng,
} from '../../../support/hostile-files.js';

const limits = partitionLimits({});

function headerError(bytes: Uint8Array, name = 'x.img', l = limits): { code: string; message: string } {
  try {
    readImageHeader(bytes, name, l);
  } catch (e) {
    if (isQuarryError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('no error');
}

/** A little-endian TIFF of 16 x 16 directories; `next(i)` is the offset directory i links to. */
function tiffChain(count: number, next: (i: number, at: (j: number) => number) => number, subfileTypes: number[] = []): Uint8Array {
  const ifdSize = 2 + 3 * 12 + 4;
  const at = (j: number): number => 8 + j * ifdSize;
  const b = Buffer.alloc(8 + count * ifdSize);
  b.write('II*\0', 0, 'latin1');
  b.writeUInt32LE(8, 4);
  for (let i = 0; i < count; i++) {
    let o = at(i);
    b.writeUInt16LE(3, o);
    o += 2;
    for (const [tag, value] of [
      [254, subfileTypes[i] ?? 0],
      [256, 16],
      [257, 16 + i],
    ] as const) {
      b.writeUInt16LE(tag, o);
      b.writeUInt16LE(4, o + 2);
      b.writeUInt32LE(1, o + 4);
      b.writeUInt32LE(value, o + 8);
      o += 12;
    }
    b.writeUInt32LE(next(i, at), o);
  }
  return new Uint8Array(b);
}

describe('readImageHeader', () => {
  it('reads the format and size of PNG, JPEG and a black PNG of any size without decoding', () => {
    expect(readImageHeader(validPalettePng(), 'a.png', limits)).toEqual({ format: 'png', pages: [{ index: 0, width: 16, height: 16 }] });
    expect(readImageHeader(validGrayJpeg(), 'a.jpg', limits)).toEqual({ format: 'jpeg', pages: [{ index: 0, width: 8, height: 8 }] });
    expect(readImageHeader(blackPng(10_000, 9_999), 'b.png', limits).pages).toEqual([{ index: 0, width: 10_000, height: 9_999 }]);
  });

  it('refuses a page over the limit with FILE_TOO_LARGE naming the pixels and the variable', () => {
    for (const { name, bytes } of [hugeHeaderTiff(), hugeSecondPageTiff(), hugeFrameGif(), hugeHeaderWebp(), hugeHeaderBmp()]) {
      expect(headerError(bytes, name)).toEqual({
        code: 'FILE_TOO_LARGE',
        message: `${name}: 2500000000 pixels, over the limit of 100000000 pixels (set QUARRY_MAX_IMAGE_PIXELS to raise it)`,
      });
    }
  });

  it('follows QUARRY_MAX_IMAGE_PIXELS', () => {
    const low = partitionLimits({ QUARRY_MAX_IMAGE_PIXELS: '255' });
    expect(headerError(validPalettePng(), 'a.png', low).code).toBe('FILE_TOO_LARGE');
    expect(readImageHeader(validPalettePng(), 'a.png', partitionLimits({ QUARRY_MAX_IMAGE_PIXELS: '256' })).pages).toHaveLength(1);
  });

  it('lists every TIFF directory as a page except reduced-resolution ones, with its index in the chain', () => {
    const tiff = tiffChain(3, (i, at) => (i < 2 ? at(i + 1) : 0), [0, 1, 0]);
    expect(readImageHeader(tiff, 'scan.tif', limits)).toEqual({
      format: 'tiff',
      pages: [
        { index: 0, width: 16, height: 16 },
        { index: 2, width: 16, height: 18 },
      ],
    });
  });

  it('fails with FILE_UNREADABLE on a TIFF whose directories loop or run off the file', () => {
    expect(
      headerError(
        tiffChain(2, (i, at) => at(1 - i)),
        'loop.tif',
      ),
    ).toEqual({ code: 'FILE_UNREADABLE', message: 'loop.tif: not a readable image (its TIFF header is damaged: its directories form a loop)' });
    expect(
      headerError(
        tiffChain(1, () => 1_000_000),
        'cut.tif',
      ).message,
    ).toMatch(/^cut\.tif: not a readable image \(its TIFF header is damaged: /);
  });

  it('fails with FILE_UNREADABLE on bytes that are not an image or a format it does not read', () => {
    expect(headerError(new TextEncoder().encode('not an image at all'), 'photo.png')).toEqual({
      code: 'FILE_UNREADABLE',
      message: 'photo.png: not a readable image (its header is damaged or it is not an image)',
    });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>');
    expect(headerError(svg, 'logo.png').message).toBe('logo.png: not a readable image (SVG images are not read, only PNG, JPEG, GIF, WebP, BMP and TIFF)');
    expect(headerError(validPalettePng().subarray(0, 20), 'cut.png').code).toBe('FILE_UNREADABLE');
  });
});
