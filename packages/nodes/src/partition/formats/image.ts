import type { Element } from '@quarry/core';
import { ocrImage, type OcrBlock, type OcrBox, type OcrResult } from '../ocr.js';
import { OcrWarnings } from '../ocr-warnings.js';
import { eraseRulingLines } from '../ruling-lines.js';
import type { FormatPartitionOptions, FormatPartitioner } from '../types.js';
import { decodeImagePages, type DecodedPage } from './image-decode.js';
import { layoutToElements } from './image-layout.js';
import { newElement } from './new-element.js';

// Tesseract reads text best when capitals are 20-40 px tall; page images under about 2000 px on
// their long side are scans at 100-150 dpi or screenshots, whose text is too small for it.
const TARGET_LONG_SIDE = 2000;
const MAX_UPSCALE = 3;

/**
 * The page as PNG for OCR, enlarged when its text is likely too small and with its ruling lines
 * painted out (see `ruling-lines.ts`); returns the scale used.
 */
async function ocrInput(page: DecodedPage): Promise<{ png: Uint8Array; scale: number }> {
  const scale = Math.min(MAX_UPSCALE, Math.max(1, TARGET_LONG_SIDE / Math.max(page.width, page.height)));
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(Math.round(page.width * scale), Math.round(page.height * scale));
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(page.canvas, 0, 0, canvas.width, canvas.height);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  if (eraseRulingLines(image.data, canvas.width, canvas.height, 4) > 0) ctx.putImageData(image, 0, 0);
  return { png: new Uint8Array(canvas.toBuffer('image/png')), scale };
}

/** Maps the OCR boxes of an enlarged image back to the original image's pixels. */
function unscale(blocks: OcrBlock[], scale: number): OcrBlock[] {
  if (scale === 1) return blocks;
  const b = (x: OcrBox): OcrBox => ({ x0: x.x0 / scale, y0: x.y0 / scale, x1: x.x1 / scale, y1: x.y1 / scale });
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

/**
 * Images (PNG, JPEG, TIFF including multi-page TIFF, BMP, GIF, WebP): every page is OCR'd with
 * Tesseract (`ocr_languages`) and turned into elements by {@link layoutToElements}: one element per
 * OCR paragraph, typed by its text, `FigureCaption` for "Table 1:"/"Figure 2." captions, and a
 * `Table` for each region of lines that split into aligned columns (with `text_as_html` when table
 * structure is asked for). `page_number` is the TIFF page (1 for other formats); with
 * `coordinates` each element gets its PixelSpace box. Small images are enlarged before OCR. Every
 * strategy OCRs: an image has no text layer to read instead.
 */
export const imagePartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const pages = await decodeImagePages(bytes, options.filename);
    const out: Element[] = [];
    const warnings = new OcrWarnings();
    for (const [index, page] of pages.entries()) {
      options.signal.throwIfAborted();
      const { png, scale } = await ocrInput(page);
      const result: OcrResult = await ocrImage(png, { languages: options.ocr_languages, signal: options.signal, logger: options.logger });
      warnings.add(index + 1, result.warnings);
      if (index > 0 && options.include_page_breaks) out.push(newElement('PageBreak', '', { page_number: index }));
      out.push(
        ...layoutToElements(
          { blocks: unscale(result.blocks, scale), width: page.width, height: page.height },
          { pageNumber: index + 1, coordinates: options.coordinates, inferTableStructure: options.infer_table_structure },
        ),
      );
    }
    warnings.stamp(out);
    warnings.log(options.logger, options.filename);
    return out;
  },
};
