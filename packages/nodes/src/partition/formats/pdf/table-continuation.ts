/**
 * Tables continued on the next page are joined into one: a table that ends its page's body text and
 * a table that starts the next page's body, with the same columns at about the same place, are one
 * table split by the page break. The continuation's rows are appended to the first part (a header
 * row the continuation repeats is dropped) and its block leaves its page; the joined Table keeps the
 * first part's page number and coordinates.
 */
import type { PageLayout, TableCell, TextBlock } from './layout-types.js';

// The two parts' left and right edges differ by at most this share of the table's width.
const MAX_EDGE_SHIFT = 0.05;

const columnCount = (rows: readonly (readonly TableCell[])[]): number => Math.max(0, ...rows.map((r) => r.reduce((n, c) => n + c.colspan, 0)));

const rowKey = (row: readonly TableCell[]): string => row.map((c) => `${c.colspan}:${c.text}`).join('|');

/**
 * Joins continued tables across consecutive pages, in place. `skip` tells blocks that are not body
 * text (page furniture), which may stand between a table and the page break.
 */
export function joinContinuedTables(pages: readonly (PageLayout | undefined)[], skip: (block: TextBlock) => boolean): void {
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
    let rows = first.table.rows;
    if (rows.length > 1 && last.table.rows.length > 0 && rowKey(rows[0]!) === rowKey(last.table.rows[0]!)) rows = rows.slice(1);
    last.table = { rows: [...last.table.rows, ...rows] };
    last.text = last.table.rows.flatMap((r) => r.map((c) => c.text).filter(Boolean)).join(' ');
    last.lineCount += first.lineCount;
    // Its text class was computed from the first part's text alone.
    delete last.textClass;
    page.blocks = page.blocks.filter((b) => b !== first);
  }
}
