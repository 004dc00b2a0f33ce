/**
 * A scanned page in two scripts, made from real documents: a region of an English paper and a region
 * of a Korean card brochure (both corpus PDFs), rendered by pdf.js and stacked into one PNG, with
 * the words of their text layers as the truth an OCR reading is scored against.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, type Canvas } from '@napi-rs/canvas';
import { withPdf } from '../../src/partition/formats/pdf/pdfjs/load.js';
import { renderPage } from '../../src/partition/formats/pdf/pdfjs/render.js';
import { corpusDir } from '../partition/reference-metrics.js';

/** A region of a corpus PDF's page, in points from the top-left corner. */
interface Region {
  file: string;
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The English paper's second column (a paragraph on sparse and dense retrieval). */
const ENGLISH: Region = { file: 'multi-column-2p.pdf', page: 1, x0: 296, y0: 222, x1: 526, y1: 480 };
/** The Korean brochure's lower right block (points that are not earned, and other terms). */
const KOREAN: Region = { file: 'korean-text-with-tables.pdf', page: 1, x0: 283, y0: 340, x1: 538, y1: 532 };

/** The corpus files the page is made from (tests skip when they are absent). */
export const TWO_SCRIPT_SOURCES: readonly string[] = [ENGLISH.file, KOREAN.file].map((f) => path.join(corpusDir, 'docs', f));

const DPI = 200;
const MARGIN = 60;

interface RenderedRegion {
  canvas: Canvas;
  words: string[];
}

async function renderRegion(r: Region): Promise<RenderedRegion> {
  return withPdf(new Uint8Array(readFileSync(path.join(corpusDir, 'docs', r.file))), {}, async (doc) => {
    const page = await doc.getPage(r.page);
    const rendered = await renderPage(page, DPI);
    const s = rendered.scale;
    const canvas = createCanvas(Math.round((r.x1 - r.x0) * s), Math.round((r.y1 - r.y0) * s));
    canvas.getContext('2d').drawImage(rendered.canvas, r.x0 * s, r.y0 * s, canvas.width, canvas.height, 0, 0, canvas.width, canvas.height);
    // The words of the text layer whose run starts inside the region, in the layer's order.
    const height = page.getViewport({ scale: 1 }).height;
    const words: string[] = [];
    for (const item of (await page.getTextContent()).items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const x = item.transform[4] as number;
      const baseline = height - (item.transform[5] as number);
      if (x >= r.x0 && x < r.x1 && baseline > r.y0 && baseline <= r.y1) words.push(...item.str.split(/\s+/u).filter(Boolean));
    }
    return { canvas, words };
  });
}

/** The two-script page: PNG bytes (200 dpi), the words of each part, and the page's words. */
export async function twoScriptPage(): Promise<{ png: Uint8Array; english: string[]; korean: string[]; words: string[] }> {
  const parts = [await renderRegion(ENGLISH), await renderRegion(KOREAN)];
  const width = Math.max(...parts.map((p) => p.canvas.width)) + 2 * MARGIN;
  const height = parts.reduce((h, p) => h + p.canvas.height + MARGIN, MARGIN);
  const page = createCanvas(width, height);
  const ctx = page.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  let y = MARGIN;
  for (const p of parts) {
    ctx.drawImage(p.canvas, MARGIN, y);
    y += p.canvas.height + MARGIN;
  }
  const [english, korean] = parts.map((p) => p.words) as [string[], string[]];
  return { png: await page.encode('png'), english, korean, words: [...english, ...korean] };
}
