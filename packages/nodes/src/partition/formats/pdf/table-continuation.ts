/**
 * Tables continued on the next page: a table that ends its page's body text and a table that starts
 * the next page's body, with the same columns at about the same place, are one table split by the
 * page break. They are linked, not joined: each page keeps its own Table element, so a call that
 * reads only some of the pages (the hosted API's client splits a PDF into page ranges) gives the
 * same elements and ids as the whole document, and the later part names the part it continues.
 */
import type { PageLayout, TableCell, TextBlock } from './layout-types.js';

// The two parts' left and right edges differ by at most this share of the table's width.
const MAX_EDGE_SHIFT = 0.05;

const columnCount = (rows: readonly (readonly TableCell[])[]): number => Math.max(0, ...rows.map((r) => r.reduce((n, c) => n + c.colspan, 0)));

/**
 * The continued tables of consecutive pages: each continuation's block mapped to the block of the
 * part it continues (on the page before). `skip` tells blocks that are not body text (page
 * furniture), which may stand between a table and the page break.
 */
export function findContinuedTables(pages: readonly (PageLayout | undefined)[], skip: (block: TextBlock) => boolean): Map<TextBlock, TextBlock> {
  const links = new Map<TextBlock, TextBlock>();
  for (let i = 1; i < pages.length; i++) {
    const prevPage = pages[i - 1];
    const page = pages[i];
    if (!prevPage || !page || page.pageNumber !== prevPage.pageNumber + 1) continue;
    const last = [...prevPage.blocks].reverse().find((b) => !skip(b));
    const first = page.blocks.find((b) => !skip(b));
    if (!last?.table || !first?.table || last.kind !== 'table' || first.kind !== 'table') continue;
    const cols = columnCount(last.table.rows);
    if (cols < 2 || columnCount(first.table.rows) !== cols) continue;
    const width = last.box.x1 - last.box.x0;
    if (Math.abs(first.box.x0 - last.box.x0) > MAX_EDGE_SHIFT * width || Math.abs(first.box.x1 - last.box.x1) > MAX_EDGE_SHIFT * width) continue;
    links.set(first, last);
  }
  return links;
}
