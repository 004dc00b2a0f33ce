/**
 * Ruled tables of an OCR'd image: the ruling lines found on the image (`raster-rulings.ts`) and the
 * OCR'd words go through the PDF layout's own finders, the grid reading (`ruled-tables.ts`, spans
 * where a separating line is missing) and the horizontally ruled reading (`open-tables.ts`), so a
 * scanned table is rebuilt as a born-digital one is. Tables without rules are left to the
 * alignment reading of `layout.ts`.
 */
import type { Element, ElementMetadata } from '@quarry/core';
import type { OcrBlock, OcrBox, OcrResult } from '../../ocr.js';
import { fragmentsFromOcr } from '../pdf/hi-res.js';
import type { Box, TextBlock } from '../pdf/layout-types.js';
import { splitAtWalls } from '../pdf/ocr-wall-split.js';
import { findOpenTables } from '../pdf/open-tables.js';
import { findRuledTables } from '../pdf/ruled-tables.js';
import { buildLines } from '../pdf/text-lines.js';
import { htmlifySpannedMatrix, normalizeSpace } from '../shared/table-html.js';
import { newElement } from '../shared/new-element.js';

// The finders' distances are in points; OCR'd pixels are taken at this resolution (the one PDF pages
// are rendered at for OCR, and about what an enlarged image has).
const PIXELS_PER_POINT = 200 / 72;

/** A ruled table found on an OCR'd image, in the OCR'd image's pixels. */
export interface OcrGridTable {
  box: OcrBox;
  block: TextBlock;
}

/**
 * The ruled tables among an OCR'd image's words, from the image's ruling lines (both in the OCR'd
 * image's pixels).
 */
export function findOcrGridTables(ocr: OcrResult, rulings: readonly Box[]): OcrGridTable[] {
  if (rulings.length === 0) return [];
  const k = PIXELS_PER_POINT;
  const inPoints = rulings.map((r) => ({ x0: r.x0 / k, y0: r.y0 / k, x1: r.x1 / k, y1: r.y1 / k }));
  const lines = buildLines(splitAtWalls(fragmentsFromOcr(ocr, k), inPoints));
  const ruled = findRuledTables(lines, inPoints);
  const open = findOpenTables(ruled.rest, ruled.horizontal, ruled.graphics);
  return [...ruled.tables, ...open.tables].map((block) => ({
    block,
    box: { x0: block.box.x0 * k, y0: block.box.y0 * k, x1: block.box.x1 * k, y1: block.box.y1 * k },
  }));
}

/** Whether the centre of `b` lies inside `box`. */
const centreIn = (b: OcrBox, box: OcrBox): boolean => {
  const cx = (b.x0 + b.x1) / 2;
  const cy = (b.y0 + b.y1) / 2;
  return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
};

/** The OCR blocks without the words inside `boxes` (lines, paragraphs and blocks left empty go). */
export function withoutWordsIn(blocks: readonly OcrBlock[], boxes: readonly OcrBox[]): OcrBlock[] {
  if (boxes.length === 0) return [...blocks];
  const keep = (b: OcrBox): boolean => !boxes.some((box) => centreIn(b, box));
  return blocks
    .map((block) => ({
      ...block,
      paragraphs: block.paragraphs
        .map((p) => ({
          ...p,
          lines: p.lines.map((l) => ({ ...l, words: l.words.filter((w) => keep(w.bbox)) })).filter((l) => l.words.length > 0),
        }))
        .filter((p) => p.lines.length > 0),
    }))
    .filter((block) => block.paragraphs.length > 0);
}

/** A found table as a `Table` element (`text_as_html` when asked), with the metadata `meta` gives its box. */
export function tableElement(table: OcrGridTable, meta: (box: OcrBox) => ElementMetadata, inferTableStructure: boolean): Element {
  const m = meta(table.box);
  if (inferTableStructure && table.block.table) m.text_as_html = htmlifySpannedMatrix(table.block.table.rows);
  return newElement('Table', normalizeSpace(table.block.text), m);
}

/**
 * Puts each table before the first element (in reading order) that starts below the table's top;
 * `tops` gives each element's top in the same pixels as the tables' boxes.
 */
export function insertTables(elements: readonly Element[], tops: readonly number[], tables: readonly { top: number; element: Element }[]): Element[] {
  const out: Element[] = [];
  const pending = [...tables].sort((a, b) => a.top - b.top);
  elements.forEach((e, i) => {
    while (pending.length > 0 && pending[0]!.top <= tops[i]!) out.push(pending.shift()!.element);
    out.push(e);
  });
  out.push(...pending.map((t) => t.element));
  return out;
}
