/**
 * Regions of an OCR input cut out and stacked into one greyscale image, so that Tesseract's script
 * detection can look at some lines of a page alone. Binary PNM (P5), which the PDF path hands to
 * OCR, is cut here; other formats (the image path's PNG) are decoded with sharp when it is installed.
 */
import type { OcrBox } from './ocr-types.js';

/** 8-bit greyscale pixels, one byte a pixel, rows top to bottom. */
interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

// "P5", whitespace, width, height and maxval 255, one whitespace byte, then the pixels.
const P5_HEADER = /^P5\s+(\d+)\s+(\d+)\s+255\s/;

function parsePgm(image: Uint8Array): GreyImage | undefined {
  if (image[0] !== 0x50 || image[1] !== 0x35) return undefined;
  const head = new TextDecoder('latin1').decode(image.subarray(0, 64));
  const m = P5_HEADER.exec(head);
  if (!m) return undefined;
  const width = Number(m[1]);
  const height = Number(m[2]);
  const start = m[0].length;
  if (image.length < start + width * height) return undefined;
  return { data: image.subarray(start, start + width * height), width, height };
}

async function decodeGrey(image: Uint8Array): Promise<GreyImage | undefined> {
  const pgm = parsePgm(image);
  if (pgm) return pgm;
  // Loaded only for this: the PDF path never gets here, and sharp is an optional peer.
  const sharp = await import('./formats/image/decode.js').then((m) => m.loadSharp()).catch(() => undefined);
  if (!sharp) return undefined;
  const { data, info } = await sharp(image).flatten({ background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) return undefined;
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/**
 * The boxes of `image` (pixels) one under another on white, `pad` pixels apart, as a P5 image; or
 * undefined when the image cannot be decoded here (not PNM, and sharp is not installed).
 */
export async function stackRegions(image: Uint8Array, boxes: readonly OcrBox[], pad: number): Promise<Uint8Array | undefined> {
  const grey = await decodeGrey(image);
  if (!grey || boxes.length === 0) return undefined;
  const clip = boxes
    .map((b) => ({
      x0: Math.max(0, Math.floor(b.x0)),
      y0: Math.max(0, Math.floor(b.y0)),
      x1: Math.min(grey.width, Math.ceil(b.x1)),
      y1: Math.min(grey.height, Math.ceil(b.y1)),
    }))
    .filter((b) => b.x1 > b.x0 && b.y1 > b.y0);
  if (clip.length === 0) return undefined;
  const width = Math.max(...clip.map((b) => b.x1 - b.x0)) + 2 * pad;
  const height = clip.reduce((h, b) => h + b.y1 - b.y0 + pad, pad);
  const header = new TextEncoder().encode(`P5\n${width} ${height}\n255\n`);
  const out = new Uint8Array(header.length + width * height).fill(255);
  out.set(header, 0);
  let y = pad;
  for (const b of clip) {
    for (let row = b.y0; row < b.y1; row++, y++) {
      const from = row * grey.width;
      out.set(grey.data.subarray(from + b.x0, from + b.x1), header.length + y * width + pad);
    }
    y += pad;
  }
  return out;
}
