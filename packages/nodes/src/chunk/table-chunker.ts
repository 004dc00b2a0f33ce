import type { Element, ElementMetadata } from '@quarry/core';
import { codecFor } from './code-points.js';
import { origTableFor, tableChunkBaseMetadata } from './consolidate-metadata.js';
import type { ChunkContext } from './context.js';
import { parseHtmlTable, type HtmlCell, type HtmlRow, type HtmlTable } from './html-table.js';
import type { ChunkingOptions } from './options.js';
import { collapseWhitespace, pyStrip } from './python-text.js';
import { TextSplitter } from './text-splitter.js';
import { randomUuid } from '@quarry/core/element';

/** Below this `max_characters` a table is split as plain text: HTML overhead would dominate. */
export const MIN_HTML_SPLIT_MAX_CHARACTERS = 50;
// len("<table><tr><td></td></tr></table>"): the HTML around one split cell's text.
const CELL_HTML_OVERHEAD = 33;

type TextAndHtml = [text: string, html: string];

/**
 * The chunks of a pre-chunk holding one table (the library's `_TableChunker`):
 * - one `Table` with its stripped text and compact `text_as_html` when both fit `max_characters`;
 * - else `TableChunk`s split on row, then cell, then word boundaries from the HTML, header rows
 *   repeated on continuation chunks (text taken from the HTML cells);
 * - or, without usable HTML or with `max_characters` < 50, `TableChunk`s of the plain text.
 * A table without text gives no chunk.
 */
export function tableChunks(table: Element, overlapPrefix: string, ctx: ChunkContext): Element[] {
  const rawHtml = table.metadata.text_as_html;
  const html = typeof rawHtml === 'string' ? rawHtml : '';
  // Lengths and cuts in code points: with astral characters, chunk the table's
  // one-unit-per-code-point form and map the chunks back.
  const codec = codecFor([table.text, html, overlapPrefix]);
  if (codec.identity) return tableChunksOf(table, overlapPrefix, ctx, table);
  const encoded: Element = { ...table, text: codec.encode(table.text) };
  if (html) encoded.metadata = { ...table.metadata, text_as_html: codec.encode(html) };
  return tableChunksOf(encoded, codec.encode(overlapPrefix), ctx, table).map((chunk) => {
    chunk.text = codec.decode(chunk.text);
    const chunkHtml = chunk.metadata.text_as_html;
    if (typeof chunkHtml === 'string') chunk.metadata.text_as_html = codec.decode(chunkHtml);
    return chunk;
  });
}

// tableChunks on text measured in code units; `original` is the caller's table, for orig_elements.
function tableChunksOf(table: Element, overlapPrefix: string, ctx: ChunkContext, original: Element): Element[] {
  if (!collapseWhitespace(table.text)) return [];
  const { opts } = ctx;
  const stripped = pyStrip(table.text);
  const textWithOverlap = overlapPrefix ? `${overlapPrefix}\n${stripped}` : stripped;
  const rawHtml = table.metadata.text_as_html;
  const htmlTable = typeof rawHtml === 'string' ? parseHtmlTable(rawHtml) : undefined;
  const html = htmlTable?.html ?? '';
  const orig = opts.include_orig_elements ? origTableFor(original) : undefined;

  if (textWithOverlap.length <= opts.max_characters && html.length <= opts.max_characters) {
    const metadata = tableChunkBaseMetadata(table);
    if (html) metadata.text_as_html = html;
    else delete metadata.text_as_html;
    if (orig) metadata.orig_elements = orig;
    return [{ element_id: randomUuid(), type: 'Table', text: textWithOverlap, metadata }];
  }

  if (!htmlTable || !html || opts.max_characters < MIN_HTML_SPLIT_MAX_CHARACTERS) {
    return makeTableChunks(
      table,
      ctx.splitter.pieces(textWithOverlap).map((t) => [t, undefined]),
      0,
      orig,
    );
  }

  let headerRowCount = 0;
  if (opts.repeat_table_headers) while (htmlTable.rows[headerRowCount]?.isHeader) headerRowCount++;
  const splitter = new HtmlTableSplitter(htmlTable, opts, headerRowCount);
  return makeTableChunks(table, [...splitter.subtables()], splitter.carriedOverHeaderRowCount, orig);
}

function makeTableChunks(table: Element, pieces: Array<[string, string | undefined]>, carriedOverHeaderRows: number, orig: Element[] | undefined): Element[] {
  const tableId = randomUuid();
  return pieces.map(([text, html], chunkIndex): Element => {
    const metadata: ElementMetadata = tableChunkBaseMetadata(table);
    if (html !== undefined) metadata.text_as_html = html;
    else delete metadata.text_as_html;
    if (chunkIndex > 0) metadata.is_continuation = true;
    metadata.num_carried_over_header_rows = chunkIndex > 0 ? Math.max(0, carriedOverHeaderRows) : 0;
    if (orig) metadata.orig_elements = orig;
    metadata.table_id = tableId;
    metadata.chunk_index = chunkIndex;
    return { element_id: randomUuid(), type: 'TableChunk', text, metadata };
  });
}

function escapeCellText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

// Whole rows while they fit; the window counts one space between row texts.
class RowAccumulator {
  private rows: HtmlRow[] = [];
  private textLength = 0;

  constructor(private readonly maxlen: number) {}

  willFit(row: HtmlRow): boolean {
    return this.maxlen - this.rows.length - this.textLength >= row.textLength;
  }

  add(row: HtmlRow): void {
    this.rows.push(row);
    this.textLength += row.textLength;
  }

  flush(): TextAndHtml | undefined {
    if (this.rows.length === 0) return undefined;
    const text = this.rows.flatMap((r) => r.cellTexts).join(' ');
    const html = `<table>${this.rows.map((r) => r.html).join('')}</table>`;
    this.rows = [];
    this.textLength = 0;
    return [text, html];
  }
}

// Whole cells of one oversized row while they fit.
class CellAccumulator {
  private cells: HtmlCell[] = [];

  constructor(private readonly maxlen: number) {}

  willFit(cell: HtmlCell): boolean {
    let used = this.cells.length;
    for (const c of this.cells) used += c.text.length;
    return this.maxlen - used >= cell.text.length;
  }

  add(cell: HtmlCell): void {
    this.cells.push(cell);
  }

  flush(): TextAndHtml | undefined {
    if (this.cells.length === 0) return undefined;
    const text = this.cells
      .filter((c) => c.text)
      .map((c) => c.text)
      .join(' ');
    const html = `<table><tr>${this.cells.map((c) => c.html).join('')}</tr></table>`;
    this.cells = [];
    return [text, html];
  }
}

/** Splits a compact table into `(text, html)` pieces (the library's `_HtmlTableSplitter`). */
class HtmlTableSplitter {
  private readonly headerRows: HtmlRow[];
  private readonly headerText: string;
  private readonly shouldRepeatHeaders: boolean;
  private readonly headerRowsHtml: string;

  constructor(
    private readonly table: HtmlTable,
    private readonly opts: ChunkingOptions,
    headerRowCount: number,
  ) {
    this.headerRows = table.rows.slice(0, Math.max(0, headerRowCount));
    this.headerText = this.headerRows.flatMap((r) => r.cellTexts).join(' ');
    const maxHeaderRowLength = Math.max(0, ...this.headerRows.map((r) => r.textLength));
    // A header row taking more than half the window would crowd out the body: do not repeat it.
    this.shouldRepeatHeaders = this.headerRows.length > 0 && maxHeaderRowLength <= Math.floor((opts.max_characters + 1) / 2);
    this.headerRowsHtml = `<thead>${this.headerRows.map((r) => r.headerHtml).join('')}</thead>`;
  }

  /** Header rows prepended to each continuation chunk (0 when not repeated). */
  get carriedOverHeaderRowCount(): number {
    return this.shouldRepeatHeaders ? this.headerRows.length : 0;
  }

  private maxlen(isFirstChunk: boolean): number {
    if (isFirstChunk || !this.shouldRepeatHeaders) return this.opts.max_characters;
    return Math.max(1, this.opts.max_characters - this.headerText.length - 1);
  }

  private withHeaders([text, html]: TextAndHtml, isFirstChunk: boolean): TextAndHtml {
    if (isFirstChunk || !this.shouldRepeatHeaders) return [text, html];
    const header = this.headerText;
    const chunkText = header && text ? `${header} ${text}` : header || text;
    const inner = html.replace(/^<table>/, '').replace(/<\/table>$/, '');
    return [chunkText, `<table>${this.headerRowsHtml}${inner}</table>`];
  }

  *subtables(): Generator<TextAndHtml> {
    let isFirst = true;
    let acc = new RowAccumulator(this.maxlen(isFirst));
    for (const row of this.table.rows) {
      if (!acc.willFit(row)) {
        const piece = acc.flush();
        if (piece) {
          yield this.withHeaders(piece, isFirst);
          isFirst = false;
        }
        acc = new RowAccumulator(this.maxlen(isFirst));
      }
      if (acc.willFit(row)) acc.add(row);
      else {
        for (const piece of this.rowSplits(row, this.maxlen(isFirst))) {
          yield this.withHeaders(piece, isFirst);
          isFirst = false;
        }
        acc = new RowAccumulator(this.maxlen(isFirst));
      }
    }
    const last = acc.flush();
    if (last) yield this.withHeaders(last, isFirst);
  }

  private *rowSplits(row: HtmlRow, maxlen: number): Generator<TextAndHtml> {
    const acc = new CellAccumulator(maxlen);
    for (const cell of row.cells) {
      if (!acc.willFit(cell)) {
        const piece = acc.flush();
        if (piece) yield piece;
      }
      if (acc.willFit(cell)) acc.add(cell);
      else yield* this.cellSplits(cell, maxlen);
    }
    const last = acc.flush();
    if (last) yield last;
  }

  private *cellSplits(cell: HtmlCell, maxlen: number): Generator<TextAndHtml> {
    const splitter = new TextSplitter(Math.max(1, maxlen - CELL_HTML_OVERHEAD), 0);
    for (const text of splitter.pieces(cell.text)) yield [text, `<table><tr><td>${escapeCellText(text)}</td></tr></table>`];
  }
}
