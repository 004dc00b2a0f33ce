import type { Element, ElementMetadata } from '@quarry/core';
import { importOptional, requireOptional } from '../../../optional-dependency.js';
import { OCR_PACKAGES, ocrImage, type OcrBlock, type OcrBox, type OcrResult } from '../../ocr.js';
import { OcrWarnings } from '../../ocr-warnings.js';
import { markBullets } from '../../ocr-bullets.js';
import { boldLines } from '../../ocr-weight.js';
import { luma } from '../../luma.js';
import { MAX_OCR_PIXELS } from '../../limits.js';
import { takeOutRulings } from '../../raster-rulings.js';
import type { FormatPartitioner, FormatPartitionOptions } from '../../types.js';
import type { Box } from '../pdf/layout-types.js';
import { findOcrTables, insertTables, tableElement, withoutWordsIn } from './ocr-tables.js';
import { decodeImagePages, loadSharp, type DecodedPage } from './decode.js';
import { layoutToElements, pixelCoordinates } from './layout.js';
import { newElement } from '../shared/new-element.js';

// Tesseract reads text best when capitals are 20-40 px tall; page images under about 2000 px on
// their long side are scans at 100-150 dpi or screenshots, whose text is too small for it.
const TARGET_LONG_SIDE = 2000;
const MAX_UPSCALE = 3;
// The OCR input's PNG carries libvips' placeholder resolution (25 dpi), which Tesseract rejects with
// a warning for its floor of 70 dpi; an image's resolution says nothing of its text size anyway.
const OCR_DPI = 70;
/** The optional packages partitioning images needs: decoding, enlarging small images, OCR. */
export const IMAGE_PACKAGES: readonly string[] = ['sharp', '@napi-rs/canvas', ...OCR_PACKAGES];

/**
 * The page as PNG for OCR, enlarged when its text is likely too small, shrunk past
 * `MAX_OCR_PIXELS`, and with its ruling lines painted out (see `ruling-lines.ts`); returns the
 * scale used, the ruling lines read before (`raster-rulings.ts`, in the scaled pixels) and the
 * grey page as OCR reads it (for bullets and bold lines). A page at scale 1 is worked on in place,
 * so it is not copied again.
 */
async function ocrInput(page: DecodedPage): Promise<{ png: Uint8Array; scale: number; rulings: Box[]; grey: Uint8Array; width: number; height: number }> {
  const pixelCount = page.width * page.height;
  const scale =
    pixelCount > MAX_OCR_PIXELS
      ? Math.sqrt(MAX_OCR_PIXELS / pixelCount)
      : Math.min(MAX_UPSCALE, Math.max(1, TARGET_LONG_SIDE / Math.max(page.width, page.height)));
  let { rgba: pixels, width, height } = page;
  const sharp = await loadSharp();
  if (scale < 1) {
    const shrunk = await sharp(pixels, { raw: { width, height, channels: 4 } })
      .resize(Math.round(width * scale), Math.round(height * scale))
      .raw()
      .toBuffer({ resolveWithObject: true });
    ({ width, height } = shrunk.info);
    pixels = shrunk.data;
  } else if (scale > 1) {
    // Skia's high-quality scaling, which Tesseract was tuned against here; such pages are small.
    const { createCanvas, ImageData } = await importOptional<typeof import('@napi-rs/canvas')>('@napi-rs/canvas', 'partitioning images', {
      install: IMAGE_PACKAGES,
    });
    const source = createCanvas(width, height);
    source.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height), 0, 0);
    width = Math.round(width * scale);
    height = Math.round(height * scale);
    const canvas = createCanvas(width, height);
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(source, 0, 0, width, height);
    const scaled = ctx.getImageData(0, 0, width, height).data;
    pixels = Buffer.from(scaled.buffer, scaled.byteOffset, scaled.byteLength);
  }
  const rulings = takeOutRulings(pixels, width, height, 4);
  const png = await sharp(pixels, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  const grey = new Uint8Array(width * height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 4) grey[i] = luma(pixels[j]!, pixels[j + 1]!, pixels[j + 2]!);
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), scale, rulings, grey, width, height };
}

const unscaleBox = (x: OcrBox, scale: number): OcrBox => ({ x0: x.x0 / scale, y0: x.y0 / scale, x1: x.x1 / scale, y1: x.y1 / scale });

/** Maps the OCR boxes of an enlarged image back to the original image's pixels. */
function unscale(blocks: OcrBlock[], scale: number): OcrBlock[] {
  if (scale === 1) return blocks;
  const b = (x: OcrBox): OcrBox => unscaleBox(x, scale);
  return blocks.map((block) => ({
    ...block,
    bbox: b(block.bbox),
    paragraphs: block.paragraphs.map((p) => ({
      ...p,
      bbox: b(p.bbox),
      lines: p.lines.map((l) => ({
        ...l,
        bbox: b(l.bbox),
        baseline: l.baseline / scale,
        rowHeight: l.rowHeight / scale,
        descent: l.descent / scale,
        words: l.words.map((w) => ({ ...w, bbox: b(w.bbox) })),
      })),
    })),
  }));
}

// The table finders' distances are in points; an image's pixels are taken at this resolution (the
// one PDF pages are rendered at for OCR, and about what an enlarged image has).
const PIXELS_PER_POINT = 200 / 72;

/**
 * One OCR'd page's elements: its tables (`ocr-tables.ts`, the same finders as an OCR'd PDF page's),
 * and the rest of its words laid out by `layout.ts`, the tables in their place in the reading order.
 */
function pageElements(
  result: OcrResult,
  rulings: readonly Box[],
  scale: number,
  size: { width: number; height: number },
  pageNumber: number,
  options: FormatPartitionOptions,
): Element[] {
  const blocks = unscale(result.blocks, scale);
  const k = PIXELS_PER_POINT;
  const found = findOcrTables(
    result,
    rulings.map((r) => ({ x0: r.x0 / k, y0: r.y0 / k, x1: r.x1 / k, y1: r.y1 / k })),
    k,
  ).map((t) => ({
    ...t,
    box: unscaleBox(t.box, scale),
    words: t.words.map((w) => unscaleBox(w, scale)),
  }));
  // The words the tables hold leave the text; others inside a table's box (a note in its frame) stay.
  const page = {
    blocks: withoutWordsIn(
      blocks,
      found.flatMap((t) => t.words),
    ),
    ...size,
  };
  if (found.length === 0) return layoutToElements(page, { pageNumber, coordinates: options.coordinates });
  // Laid out with coordinates, to put the tables in their place; dropped after when not asked for.
  const elements = layoutToElements(page, { pageNumber, coordinates: true });
  const tops = elements.map((e) => Math.min(...(e.metadata.coordinates?.points.map((p) => p[1]) ?? [0])));
  if (!options.coordinates) for (const e of elements) delete e.metadata.coordinates;
  const meta = (box: OcrBox): ElementMetadata => ({
    page_number: pageNumber,
    ...(options.coordinates ? { coordinates: pixelCoordinates(box, size) } : {}),
  });
  const tables = found.map((t) => ({ top: t.box.y0, element: tableElement(t, meta, options.infer_table_structure) }));
  return insertTables(elements, tops, tables);
}

// Pages of at least this many pixels (two thirds of a letter page at 150 dpi) are announced as heavy
// work. Pixels tell little of the text: a table screenshot of 0.9 M pixels reads in 0.8 CPU s, a
// dense 96-dpi page of 0.8 M in 3.5 s; announced, the first lost its lane for background priority
// (10 s under load), while the second is handed off anyway once past the lane's 2 CPU seconds.
const HEAVY_OCR_PIXELS = 1_500_000;

/**
 * Images (PNG, JPEG, TIFF including multi-page TIFF, BMP, GIF, WebP): every page is OCR'd with
 * Tesseract (`ocr_languages`) and turned into elements by {@link layoutToElements}: one element per
 * OCR paragraph, typed by its text, `FigureCaption` for "Table 1:"/"Figure 2." captions, and a
 * `Table` for each grid of ruling lines on the image (cells and spans from the grid), each region
 * framed by horizontal rules and each region of lines that split into aligned columns (with
 * `text_as_html` when table structure is asked for). `page_number` is the TIFF page (1 for other formats); with
 * `coordinates` each element gets its PixelSpace box. Small images are enlarged before OCR. Every
 * strategy OCRs: an image has no text layer to read instead.
 */
export const imagePartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    // Decoding, enlarging small images, and OCR: one message names every package they need.
    await requireOptional(['sharp', '@napi-rs/canvas', 'tesseract.js'], 'partitioning images', IMAGE_PACKAGES);
    const out: Element[] = [];
    const warnings = new OcrWarnings();
    let index = 0;
    for await (const page of decodeImagePages(bytes, options.filename)) {
      options.signal.throwIfAborted();
      // Only the size is kept past this point, so the decoded pixels can go while Tesseract runs.
      const { width, height } = page;
      // A page of text to OCR is seconds of work, whatever its size in bytes; a logo or an icon
      // (an e-mail's attachments, say) takes milliseconds and need not leave a pool's small lane.
      if (width * height >= HEAVY_OCR_PIXELS) options.onHeavyWork?.();
      const { png, scale, rulings, grey, width: w, height: h } = await ocrInput(page);
      const result: OcrResult = await ocrImage(png, { languages: options.ocr_languages, signal: options.signal, logger: options.logger, dpi: OCR_DPI });
      // A list's bullets misread as letters, and headings set apart by weight alone: the grey page tells.
      markBullets(result.lines, grey, w, h);
      for (const line of boldLines(result.lines, grey, w, h)) line.bold = true;
      warnings.add(index + 1, result.warnings);
      if (index > 0 && options.include_page_breaks) out.push(newElement('PageBreak', '', { page_number: index }));
      out.push(...pageElements(result, rulings, scale, { width, height }, index + 1, options));
      index++;
    }
    warnings.stamp(out);
    warnings.log(options.logger, options.filename);
    return out;
  },
};
