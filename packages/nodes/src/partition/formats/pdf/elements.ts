/**
 * Page layouts -> elements: classification, page furniture, `page_number`, coordinates, tables'
 * HTML, the links of tables continued across pages (`continues_table_id`) and page breaks.
 *
 * Coordinates use `unstructured`'s conventions: `PixelSpace` with the origin at the top-left
 * of the displayed page and points ordered top-left, bottom-left, bottom-right, top-right. The fast
 * strategy measures in PDF points (72 dpi, layout size = page size in points, as `unstructured`'s
 * pdfminer path does); hi_res measures in pixels of the page rendered at 200 dpi, like the
 * reference's hi_res output (a letter page is 1700 x 2200).
 */
import type { Coordinates, Element, ElementMetadata, ElementType } from '@quarry/core';
import { newElement } from '../shared/new-element.js';
import { classifyBlock, detectPageFurniture } from './classify.js';
import { bodyStyle, headingDepths, outlineIndex, type HeadingInfo, type OutlineEntry } from './headings.js';
import type { Box, PageLayout, TextBlock } from './layout-types.js';
import { htmlifySpannedMatrix } from '../shared/table-html.js';
import { findContinuedTables } from './table-continuation.js';

/** Options of {@link elementsFromLayouts}. */
export interface ElementBuildOptions {
  includePageBreaks: boolean;
  coordinates: boolean;
  /** Coordinate resolution: 72 (points) for fast, 200 for hi_res. */
  dpi: number;
  /** Adds `text_as_html` to tables. */
  inferTableStructure: boolean;
  /** The document outline, which names headings and their levels. */
  outline?: readonly OutlineEntry[];
}

/** An element with the block and page it came from (PageBreaks have neither). */
export interface BuiltElement {
  element: Element;
  block?: TextBlock;
  page?: PageLayout;
}

/**
 * Turns page layouts (index = page order; `undefined` for pages that could not be read) into
 * elements in reading order.
 */
export function elementsFromLayouts(pages: readonly (PageLayout | undefined)[], options: ElementBuildOptions): BuiltElement[] {
  // Each page's body text, which both furniture and headings are told against.
  const bodies = new Map(pages.filter((p) => p !== undefined).map((p) => [p, bodyStyle([p])]));
  const furniture = detectPageFurniture(pages, (p) => bodies.get(p)!);
  const continued = findContinuedTables(pages, (b) => furniture.has(b));
  const tableElements = new Map<TextBlock, Element>();
  const outline = outlineIndex(options.outline);
  const out: BuiltElement[] = [];
  const headings: { element: Element; heading: HeadingInfo }[] = [];
  let first = true;
  for (const page of pages) {
    if (!page) continue;
    if (!first && options.includePageBreaks) out.push({ element: newElement('PageBreak', '', {}) });
    first = false;
    // Whether a block is a heading is decided from its page; levels from the whole document.
    const ctx = { ...bodies.get(page)!, outline };
    for (const block of page.blocks) {
      let type: ElementType;
      let text: string;
      let heading: HeadingInfo | undefined;
      if (block.kind === 'image') {
        type = 'Image';
        text = block.text;
      } else {
        const role = furniture.get(block);
        if (role) {
          type = role;
          text = block.text.trim();
        } else {
          const cls = classifyBlock(block, page, ctx);
          if (!cls) continue;
          type = cls.type;
          text = cls.text;
          heading = cls.heading;
        }
      }
      const metadata: ElementMetadata = { page_number: page.pageNumber };
      if (options.coordinates) metadata.coordinates = coordinatesFor(block.box, page, options.dpi);
      if (type === 'Table' && block.table && options.inferTableStructure) metadata.text_as_html = htmlifySpannedMatrix(block.table.rows);
      const element = newElement(type, text, metadata);
      if (heading) headings.push({ element, heading });
      if (type === 'Table') {
        tableElements.set(block, element);
        const before = continued.get(block);
        const earlier = before && tableElements.get(before);
        if (earlier) metadata.continues_table_id = earlier.element_id;
      }
      out.push({ element, block, page });
    }
  }
  const depths = headingDepths(headings.map((h) => h.heading));
  headings.forEach((h, i) => (h.element.metadata.category_depth = depths[i]!));
  return out;
}

const round = (v: number): number => Math.round(v * 100) / 100;

/** A block's box as reference-style `PixelSpace` coordinates at `dpi`. */
export function coordinatesFor(box: Box, page: { width: number; height: number }, dpi: number): Coordinates {
  const s = dpi / 72;
  const x0 = round(Math.max(0, box.x0) * s);
  const y0 = round(Math.max(0, box.y0) * s);
  const x1 = round(Math.min(page.width, box.x1) * s);
  const y1 = round(Math.min(page.height, box.y1) * s);
  return {
    points: [
      [x0, y0],
      [x0, y1],
      [x1, y1],
      [x1, y0],
    ],
    system: 'PixelSpace',
    layout_width: dpi === 72 ? round(page.width) : Math.round(page.width * s),
    layout_height: dpi === 72 ? round(page.height) : Math.round(page.height * s),
  };
}
