/**
 * One page's text layer -> its {@link PageLayout}. Shared by the main thread and the page worker
 * thread, so it has no run-time dependency on `@quarry/core` (type imports only).
 */
import { classifyBlockText, type BlockTextOptions } from './classify.js';
import { findPageGraphics } from './pdfjs/images.js';
import { loadPdfjs, type PdfPage } from './pdfjs/load.js';
import type { PageLayout, PageText } from './layout-types.js';
import { fragmentsFromTextContent, type PdfTextStyle } from './pdfjs/text-items.js';
import { withFontsOf } from './pdfium/font-transfer.js';
import { findTables } from './tables.js';
import { layoutFragments, type LayoutOptions } from './text-layout.js';

export type { PageText } from './layout-types.js';

/** Reads a page's text layer as fragments in the displayed page's frame (points, top-left origin). */
export async function readPageText(page: PdfPage): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const styles = content.styles as Record<string, PdfTextStyle | undefined>;
  const { fragments, textChars, badChars } = fragmentsFromTextContent(content.items, styles, viewport.transform);
  return { width: viewport.width, height: viewport.height, fragments, textChars, badChars };
}

/** Options of the page layout functions. */
export interface PageLayoutOptions extends LayoutOptions, BlockTextOptions {
  /** Classify the blocks' text too (see {@link classifyPageBlocks}); default true. */
  classify?: boolean;
}

/**
 * Lays out fragments already read from a page (and classifies the blocks' text). Tables are found
 * with `tables.ts` (from the page's rulings when it has them, and from the text's alignment) unless
 * `options.findTables` says otherwise, so a table is one block on every strategy.
 */
export function layoutPageText(pageNumber: number, text: PageText, options: PageLayoutOptions = {}): PageLayout {
  const layout: PageLayout = {
    pageNumber,
    width: text.width,
    height: text.height,
    blocks: layoutFragments(text.fragments, { findTables, ...options, ...(text.rulings ? { rulings: text.rulings } : {}) }),
    textChars: text.textChars,
    badChars: text.badChars,
    ...(text.fonts ? { fonts: text.fonts } : {}),
  };
  if (options.classify !== false) classifyPageBlocks(layout, options);
  return layout;
}

/** Sets each block's `textClass` where it is not set yet (and can be set with `options`). */
export function classifyPageBlocks(layout: PageLayout, options: BlockTextOptions = {}): void {
  for (const b of layout.blocks) b.textClass ??= classifyBlockText(b, options);
}

/**
 * Reads and lays out page `pageNumber` (1-based) of `doc`, with the ruling lines of its drawing,
 * as the PDFium engine reads them, so both engines find the same tables. The page's parsed
 * resources are released afterwards, which keeps memory flat on long documents. `styled`, PDFium's
 * reading of the page, gives the fonts' weights (see `pdfium/font-transfer.ts`).
 */
export async function extractPageLayout(
  doc: { getPage(n: number): Promise<PdfPage> },
  pageNumber: number,
  options: PageLayoutOptions = {},
  styled?: PageText,
): Promise<PageLayout> {
  const page = await doc.getPage(pageNumber);
  try {
    const read = await readPageText(page);
    const text = styled ? withFontsOf(read, styled) : read;
    text.rulings = (await findPageGraphics(page, await loadPdfjs())).rulings;
    return layoutPageText(pageNumber, text, options);
  } finally {
    page.cleanup();
  }
}
