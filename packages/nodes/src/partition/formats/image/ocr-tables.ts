/**
 * The tables of an OCR'd page, whichever container it came in (an image, or a PDF page without a
 * usable text layer): the ruling lines of the page (`raster-rulings.ts`, or the PDF's drawing) and
 * the OCR'd words go through the PDF layout's ruled finders, the grid reading (`ruled-tables.ts`,
 * spans where a separating line is missing) and the horizontally ruled reading (`open-tables.ts`),
 * so a scanned table is rebuilt as a born-digital one is; the words left then go through the
 * alignment reading of `layout.ts`, which reads unruled tables from OCR'd words better than the
 * PDF layout's stream reading does (its lines are split at every wide gap, OCR's are not).
 */
import type { Element, ElementMetadata } from '@quarry/core';
import type { OcrBlock, OcrBox, OcrResult, OcrWord } from '../../ocr.js';
import { fragmentsFromOcr, ocrFontSize, ocrLineBand } from '../pdf/ocr-fragments.js';
import type { Box, TextBlock, TextFragment, TextLine } from '../pdf/layout-types.js';
import { splitAtWalls } from '../pdf/ocr-wall-split.js';
import { findOpenTables } from '../pdf/open-tables.js';
import { findRuledTables } from '../pdf/ruled-tables.js';
import type { TableFinder } from '../pdf/text-layout.js';
import { buildLines } from '../pdf/text-lines.js';
import { htmlifySpannedMatrix, normalizeSpace } from '../shared/table-html.js';
import { newElement } from '../shared/new-element.js';
import { findAlignedTables, type AlignedTable } from './layout.js';

/** A table found on an OCR'd page. */
export interface OcrTable {
  /** Its box in the OCR'd image's pixels. */
  box: OcrBox;
  /** The table block, in points (the OCR'd pixels over `scale`). */
  block: TextBlock;
  /**
   * The boxes of the words the table holds, in the OCR'd image's pixels. A word inside the table's
   * box that no cell took (a note inside its frame) is not among them: it stays text.
   */
  words: OcrBox[];
  /** The same words where the PDF layout places them (points: their line's band, see `ocrLineBand`). */
  runs: Box[];
}

/**
 * Every table among an OCR'd page's words: ruled ones from `rulings` first, then those of aligned
 * columns among the words left (see the module comment).
 *
 * @param rulings the page's ruling lines, in points.
 * @param scale the OCR'd image's pixels per point.
 */
export function findOcrTables(ocr: OcrResult, rulings: readonly Box[], scale: number): OcrTable[] {
  const px = (b: Box): OcrBox => ({ x0: b.x0 * scale, y0: b.y0 * scale, x1: b.x1 * scale, y1: b.y1 * scale });
  let ruledTables: TextBlock[] = [];
  let taken: TextFragment[] = [];
  if (rulings.length > 0) {
    const lines = buildLines(splitAtWalls(fragmentsFromOcr(ocr, scale), rulings));
    const ruled = findRuledTables(lines, rulings);
    const open = findOpenTables(ruled.rest, ruled.horizontal, ruled.graphics);
    ruledTables = [...ruled.tables, ...open.tables];
    const left = new Set(open.rest.flatMap((l) => l.fragments));
    taken = lines.flatMap((l) => l.fragments).filter((f) => !left.has(f));
  }
  // A table's text size, for the page's body size and headings: that of the OCR'd lines in it.
  const found = ruledTables.map((block) => {
    const mine = taken.filter((f) => centreIn(fragmentBox(f), block.box));
    return {
      block: { ...block, size: linesFontSize(ocr, px(block.box), scale) ?? block.size },
      box: px(block.box),
      words: [...new Set(mine.flatMap((f) => wordOf(ocr, f, scale) ?? []))].map((w) => w.bbox),
      runs: mine.map(fragmentBox),
    };
  });
  const aligned = findAlignedTables(
    withoutWordsIn(
      ocr.blocks,
      found.flatMap((t) => t.words),
    ),
  );
  return [
    ...found,
    ...aligned.map((t) => ({
      box: t.box,
      block: alignedBlock(t, scale),
      words: t.words.map(({ word }) => word.bbox),
      runs: t.words.map(({ word, line }) => {
        const { top, bottom } = ocrLineBand(line, scale);
        return { x0: word.bbox.x0 / scale, y0: top, x1: word.bbox.x1 / scale, y1: bottom };
      }),
    })),
  ];
}

const fragmentBox = (f: TextFragment): Box => ({ x0: f.x0, y0: f.top, x1: f.x1, y1: f.bottom });

/** The OCR'd word a fragment of `fragmentsFromOcr` (or a piece of one) was made of. */
function wordOf(ocr: OcrResult, f: TextFragment, scale: number): OcrWord | undefined {
  const cx = (f.x0 + f.x1) / 2;
  for (const line of ocr.lines) {
    if (Math.abs(ocrLineBand(line, scale).baseline - f.baseline) > 1e-6) continue;
    const word = line.words.find((w) => cx >= w.bbox.x0 / scale - 1e-6 && cx <= w.bbox.x1 / scale + 1e-6);
    if (word) return word;
  }
  return undefined;
}

/** An aligned table as a table block in points: one cell per row and column, no spans. */
function alignedBlock(t: AlignedTable, scale: number): TextBlock {
  return {
    kind: 'table',
    text: normalizeSpace(t.rows.flat().join(' ')),
    box: { x0: t.box.x0 / scale, y0: t.box.y0 / scale, x1: t.box.x1 / scale, y1: t.box.y1 / scale },
    lineCount: t.rows.length,
    size: ocrFontSize(t.lineHeight / scale),
    font: 'ocr',
    table: { rows: t.rows.map((r) => r.map((text) => ({ text, colspan: 1, rowspan: 1 }))) },
  };
}

/** The font size of the median OCR line whose centre lies in `box` (pixels), undefined for none. */
function linesFontSize(ocr: OcrResult, box: OcrBox, scale: number): number | undefined {
  const rows = ocr.lines
    .filter((l) => centreIn(l.bbox, box))
    .map((l) => l.rowHeight)
    .sort((a, b) => a - b);
  const row = rows[Math.floor(rows.length / 2)];
  return row === undefined ? undefined : ocrFontSize(row / scale);
}

// A run of OCR'd words is a table's when its words cover at least this share of its width.
const MIN_TAKEN_SHARE = 0.5;

/**
 * A {@link TableFinder} giving `tables`, found before from the OCR'd words: the text the tables
 * hold ({@link OcrTable.runs}) is theirs, the rest of every line (words inside a table's box that no
 * cell took among them) is left for the text layout.
 */
export function foundTables(tables: readonly OcrTable[]): TableFinder {
  const runs = tables.flatMap((t) => t.runs);
  const taken = (f: TextFragment): boolean => isTaken(fragmentBox(f), runs);
  return (lines) => {
    const rest: TextLine[] = [];
    for (const l of lines) {
      const left = l.fragments.filter((f) => !taken(f));
      if (left.length === l.fragments.length) rest.push(l);
      else if (left.length > 0) rest.push(...buildLines(left));
    }
    return { tables: tables.map((t) => t.block), rest };
  };
}

/**
 * Whether `boxes` (the words a table holds) cover at least {@link MIN_TAKEN_SHARE} of the width of
 * `b` in its row: a word cut at a cell wall into pieces is taken though its centre falls between them.
 */
function isTaken(b: OcrBox, boxes: readonly OcrBox[]): boolean {
  const cy = (b.y0 + b.y1) / 2;
  let covered = 0;
  for (const w of boxes) if (cy >= w.y0 && cy <= w.y1) covered += Math.max(0, Math.min(b.x1, w.x1) - Math.max(b.x0, w.x0));
  return covered >= MIN_TAKEN_SHARE * (b.x1 - b.x0);
}

/** Whether the centre of `b` lies inside `box`. */
const centreIn = (b: OcrBox, box: OcrBox): boolean => {
  const cx = (b.x0 + b.x1) / 2;
  const cy = (b.y0 + b.y1) / 2;
  return cx >= box.x0 && cx <= box.x1 && cy >= box.y0 && cy <= box.y1;
};

/** The OCR blocks without the words `boxes` (the words tables hold) cover (lines, paragraphs and blocks left empty go). */
export function withoutWordsIn(blocks: readonly OcrBlock[], boxes: readonly OcrBox[]): OcrBlock[] {
  if (boxes.length === 0) return [...blocks];
  const keep = (b: OcrBox): boolean => !isTaken(b, boxes);
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
export function tableElement(table: OcrTable, meta: (box: OcrBox) => ElementMetadata, inferTableStructure: boolean): Element {
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
