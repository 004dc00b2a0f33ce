/**
 * Text fragments -> lines -> blocks, in reading order: the PDF text layout, in three steps
 * (`text-lines.ts`, `text-blocks.ts`, `reading-order.ts`). Columns are read one after
 * the other. Pure functions over plain data: the page worker thread runs them too.
 */
import type { Box, TextBlock, TextFragment, TextLine } from './layout-types.js';
import { orderBlocks } from './reading-order.js';
import { blockFromLines, groupLines } from './text-blocks.js';
import { buildLines } from './text-lines.js';

/**
 * Splits lines into table blocks and the lines left over (see `tables.ts`), with the page's ruling
 * lines when the engine read them.
 */
export type TableFinder = (lines: TextLine[], rulings?: readonly Box[]) => { tables: TextBlock[]; rest: TextLine[] };

/** Options of {@link layoutFragments}. */
export interface LayoutOptions {
  /** Finds tables among the horizontal lines before paragraphs are formed. */
  findTables?: TableFinder;
  /** The page's ruling lines, for {@link LayoutOptions.findTables}. */
  rulings?: readonly Box[];
}

/**
 * Lays out one page: groups fragments by text direction, forms lines and blocks in each direction,
 * and returns all blocks in reading order.
 */
export function layoutFragments(fragments: readonly TextFragment[], options: LayoutOptions = {}): TextBlock[] {
  const byDir = new Map<number, TextFragment[]>();
  for (const f of fragments) {
    const list = byDir.get(f.dir);
    if (list) list.push(f);
    else byDir.set(f.dir, [f]);
  }
  const blocks: TextBlock[] = [];
  for (const [dir, frags] of byDir) {
    let lines = buildLines(frags);
    if (options.findTables && dir === 0) {
      const found = options.findTables(lines, options.rulings);
      blocks.push(...found.tables);
      lines = found.rest;
    }
    for (const group of groupLines(lines)) blocks.push(blockFromLines(group, dir));
  }
  return orderBlocks(blocks);
}
