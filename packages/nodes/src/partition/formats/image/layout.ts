import type { Element, ElementMetadata } from '@quarry/core';
import type { OcrBlock, OcrBox, OcrLine, OcrWord } from '../../ocr.js';
import { classifyText, type ClassifiedText } from '../../text-classify.js';
import { numberDepth } from '../pdf/headings.js';
import { isOcrSpeck } from '../pdf/ocr-fragments.js';
import { newElement } from '../shared/new-element.js';
import { normalizeSpace } from '../shared/table-html.js';

/** One OCR'd page: its blocks in reading order and its size in pixels. */
export interface OcrPageLayout {
  blocks: OcrBlock[];
  width: number;
  height: number;
}

/** How {@link layoutToElements} writes its elements. */
export interface LayoutOptions {
  pageNumber: number;
  /** Write `metadata.coordinates` (PixelSpace). */
  coordinates: boolean;
}

/** A table of aligned columns found among an OCR'd page's words (see {@link findAlignedTables}). */
export interface AlignedTable {
  /** The table's box, in the OCR'd image's pixels. */
  box: OcrBox;
  /** Cell texts, row by row (every row has a cell per column). */
  rows: string[][];
  /** Median height of the table's lines, in pixels. */
  lineHeight: number;
  /** The words the table holds, each with its line. */
  words: { word: OcrWord; line: OcrLine }[];
}

/** A line with its words split into cells at wide gaps. */
interface LineInfo {
  line: OcrLine;
  /** Index of the paragraph (in reading order) the line belongs to. */
  paragraph: number;
  words: OcrWord[];
  cells: OcrWord[][];
  height: number;
  /**
   * The line's box with the median word top and bottom: a stray tall glyph (a table rule read as
   * `|`) can stretch Tesseract's line box over several rows.
   */
  core: OcrBox;
}

const CAPTION_RE = /^[^\p{L}\p{N}]{0,3}(?:table|figure|fig\.)\s*[\dIVXivx]+\s*[:.]/iu;
// A gap wider than this many line heights separates table cells; word gaps are about a third.
const CELL_GAP = 1.5;
// Table rows further apart than this many line heights belong to different tables.
const ROW_GAP = 6;
// Vertical space between two lines, in line heights, that separates paragraphs ...
const PARAGRAPH_GAP = 0.8;
// ... or, with wide line spacing, this much more than the page's usual gap between lines.
const WIDE_SPACING_MARGIN = 0.5;
// The usual gap is taken between lines of at least this many words, from this many gaps at least.
const MIN_PROSE_WORDS = 6;
const MIN_SPACING_GAPS = 3;
// The cells of a table are short: a region whose median cell is longer is columns of prose.
const MAX_MEDIAN_CELL_CHARS = 30;
// A table needs at least this many lines with at least three cells.
const MIN_TABLE_ROWS = 2;

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function unionBox(boxes: OcrBox[]): OcrBox {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

function lineInfo(line: OcrLine, paragraph: number): LineInfo | undefined {
  const words = line.words.filter((w) => w.text.trim()).sort((a, b) => a.bbox.x0 - b.bbox.x0);
  if (words.length === 0) return undefined;
  const height = line.rowHeight || median(words.map((w) => w.bbox.y1 - w.bbox.y0)) || line.bbox.y1 - line.bbox.y0;
  const cells: OcrWord[][] = [[words[0]!]];
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.bbox.x0 - words[i - 1]!.bbox.x1 > CELL_GAP * height) cells.push([]);
    cells[cells.length - 1]!.push(words[i]!);
  }
  const core = {
    x0: words[0]!.bbox.x0,
    y0: median(words.map((w) => w.bbox.y0)),
    x1: Math.max(...words.map((w) => w.bbox.x1)),
    y1: median(words.map((w) => w.bbox.y1)),
  };
  return { line, paragraph, words, cells, height, core };
}

const lineText = (l: LineInfo): string => l.words.map((w) => w.text).join(' ');

/**
 * The gap between two lines of running text read one after the other, the second right below the
 * first: lines of a few words (labels, headings, a table's notes) say nothing of the line spacing.
 */
function lineGapOf(a: LineInfo, b: LineInfo, lineHeight: number): number[] {
  const gap = b.core.y0 - a.core.y1;
  const overlap = Math.min(a.core.x1, b.core.x1) - Math.max(a.core.x0, b.core.x0);
  const prose = a.words.length >= MIN_PROSE_WORDS && b.words.length >= MIN_PROSE_WORDS;
  return prose && gap > 0 && gap < 2 * lineHeight && overlap > 0.5 * Math.min(a.core.x1 - a.core.x0, b.core.x1 - b.core.x0) ? [gap] : [];
}

/**
 * Finds table regions: runs of lines (top to bottom) in which at least {@link MIN_TABLE_ROWS}
 * lines split into three or more cells, close enough vertically, plus the lines between them
 * that lie within the run's horizontal extent (wrapped cells, sparse header lines).
 */
function findTables(lines: LineInfo[]): LineInfo[][] {
  const sorted = [...lines].sort((a, b) => a.core.y0 - b.core.y0 || a.core.x0 - b.core.x0);
  const tabular = sorted.filter((l) => l.cells.length >= 3);
  const lineHeight = median(lines.map((l) => l.height)) || 10;
  const runs: LineInfo[][] = [];
  for (const l of tabular) {
    const run = runs[runs.length - 1];
    const last = run?.[run.length - 1];
    if (run && last && l.core.y0 - last.core.y1 <= ROW_GAP * lineHeight) run.push(l);
    else runs.push([l]);
  }
  const tables: LineInfo[][] = [];
  for (const run of runs) {
    if (run.length < MIN_TABLE_ROWS) continue;
    const box = unionBox(run.map((l) => l.core));
    const members = sorted.filter((l) => {
      const b = l.core;
      const cy = (b.y0 + b.y1) / 2;
      return run.includes(l) || (cy >= box.y0 && cy <= box.y1 && b.x0 >= box.x0 - lineHeight && b.x1 <= box.x1 + lineHeight);
    });
    tables.push(members);
  }
  return tables;
}

/**
 * Column boundaries: vertical corridors of whitespace that (almost) no word of the table's
 * three-cell lines crosses, at least a line height wide. A header spanning two columns may
 * cross one corridor without erasing it.
 */
function tableColumns(members: LineInfo[], lineHeight: number): Array<{ x0: number; x1: number }> {
  const defining = members.filter((l) => l.cells.length >= 3);
  const words = members.flatMap((l) => l.words);
  const left = Math.floor(Math.min(...words.map((w) => w.bbox.x0)));
  const right = Math.ceil(Math.max(...words.map((w) => w.bbox.x1)));
  const coverage = new Array<number>(right - left + 1).fill(0);
  for (const l of defining) {
    const covered = new Uint8Array(right - left + 1);
    for (const w of l.words) for (let x = Math.max(left, Math.floor(w.bbox.x0)); x <= Math.min(right, Math.ceil(w.bbox.x1)); x++) covered[x - left] = 1;
    covered.forEach((c, i) => (coverage[i]! += c));
  }
  const allowed = Math.floor(defining.length * 0.15);
  const columns: Array<{ x0: number; x1: number }> = [];
  let start = -1;
  let gap = 0;
  for (let i = 0; i < coverage.length; i++) {
    if (coverage[i]! > allowed) {
      if (start < 0 || gap >= lineHeight) {
        columns.push({ x0: left + i, x1: left + i });
        start = i;
      }
      columns[columns.length - 1]!.x1 = left + i;
      gap = 0;
    } else gap++;
  }
  return columns.length ? columns : [{ x0: left, x1: right }];
}

/** The table's cell texts: rows by vertical overlap of lines, columns by whitespace corridors. */
function tableMatrix(members: LineInfo[]): string[][] {
  const lineHeight = median(members.map((l) => l.height)) || 10;
  const columns = tableColumns(members, lineHeight);
  const rows: Array<{ y0: number; y1: number; words: OcrWord[] }> = [];
  for (const l of [...members].sort((a, b) => a.core.y0 - b.core.y0)) {
    const b = l.core;
    const cy = (b.y0 + b.y1) / 2;
    const row = rows.find((r) => cy >= r.y0 && cy <= r.y1);
    if (row) {
      row.words.push(...l.words);
      row.y1 = Math.max(row.y1, b.y1);
    } else rows.push({ y0: b.y0, y1: b.y1, words: [...l.words] });
  }
  const columnOf = (b: OcrBox): number => {
    const cx = (b.x0 + b.x1) / 2;
    let best = 0;
    let bestDistance = Infinity;
    columns.forEach((c, i) => {
      const d = cx < c.x0 ? c.x0 - cx : cx > c.x1 ? cx - c.x1 : 0;
      if (d < bestDistance) {
        bestDistance = d;
        best = i;
      }
    });
    return best;
  };
  return rows.map((r) => {
    const cells = columns.map(() => [] as string[]);
    const ordered = [...r.words].sort((a, b) => (Math.abs(a.bbox.y0 - b.bbox.y0) > lineHeight / 2 ? a.bbox.y0 - b.bbox.y0 : a.bbox.x0 - b.bbox.x0));
    for (const w of ordered) cells[columnOf(w.bbox)]!.push(w.text);
    return cells.map((parts) => normalizeSpace(parts.join(' ')));
  });
}

/** PixelSpace coordinates of a box on a page of `page`'s size. */
export function pixelCoordinates(box: OcrBox, page: { width: number; height: number }): ElementMetadata['coordinates'] {
  return {
    points: [
      [box.x0, box.y0],
      [box.x0, box.y1],
      [box.x1, box.y1],
      [box.x1, box.y0],
    ],
    system: 'PixelSpace',
    layout_width: page.width,
    layout_height: page.height,
  };
}

/** The page's OCR lines in reading order, with the index of the paragraph each belongs to. */
function pageLines(blocks: readonly OcrBlock[]): LineInfo[] {
  const lines: LineInfo[] = [];
  blocks
    .flatMap((b) => b.paragraphs)
    .forEach((p, i) => {
      for (const l of p.lines) {
        const info = lineInfo(l, i);
        if (info) lines.push(info);
      }
    });
  return lines;
}

/**
 * The tables of aligned columns among OCR'd words: runs of lines that split into three or more
 * cells at wide gaps, their columns the corridors of whitespace no cell crosses. `unstructured` finds
 * these regions with a layout-detection model; this is the geometric approximation available offline.
 */
export function findAlignedTables(blocks: readonly OcrBlock[]): AlignedTable[] {
  return findTables(pageLines(blocks)).flatMap((members) => {
    const rows = tableMatrix(members);
    const lengths = rows.flat().flatMap((c) => (c ? [c.length] : []));
    // Side-by-side columns of running text split at their gutters too; their cells are sentences.
    if (lengths.length === 0 || median(lengths) > MAX_MEDIAN_CELL_CHARS) return [];
    return [
      {
        box: unionBox(members.map((l) => l.core)),
        rows,
        lineHeight: median(members.map((l) => l.height)) || 10,
        words: members.flatMap((l) => l.words.map((word) => ({ word, line: l.line }))),
      },
    ];
  });
}

/**
 * Turns one OCR'd page's text into elements, in the OCR's reading order: each paragraph becomes one
 * element typed by its text (Title, NarrativeText, ListItem, ...; "Table 1: ..." and "Figure 2."
 * lines become FigureCaption). Tables are found before (`ocr-tables.ts`) and their words left out.
 */
export function layoutToElements(page: OcrPageLayout, options: LayoutOptions): Element[] {
  let paragraphs = page.blocks.reduce((n, b) => n + b.paragraphs.length, 0);
  const lines = pageLines(page.blocks).flatMap((l) => withoutSpecks(l, () => paragraphs++));
  const meta = (box: OcrBox): ElementMetadata => {
    const m: ElementMetadata = { page_number: options.pageNumber };
    if (options.coordinates) m.coordinates = pixelCoordinates(box, page);
    return m;
  };
  const out: Element[] = [];
  let pending: LineInfo[] = [];
  const bodyRow = median(lines.filter((l) => lineText(l).length >= BODY_LINE_CHARS).map((l) => l.height));
  const flush = (): void => {
    const text = normalizeSpace(pending.map(lineText).join(' '));
    if (text && /[\p{L}\p{N}]/u.test(text)) {
      const c = CAPTION_RE.test(text) ? { type: 'FigureCaption' as const, text } : headingTyped(classifyText(text), pending, bodyRow);
      out.push(newElement(c.type, c.text, meta(unionBox(pending.map((l) => l.core)))));
    }
    pending = [];
  };
  // Tesseract's single-block segmentation puts a whole page in one paragraph; a blank line's
  // worth of vertical space between two lines starts a new one, or on a page set with wide line
  // spacing (double-spaced text) clearly more than its lines' usual gap.
  const pageLineHeight = median(lines.map((l) => l.height)) || 10;
  const gaps = lines.slice(1).flatMap((l, i) => lineGapOf(lines[i]!, l, pageLineHeight));
  const lineGap = gaps.length >= MIN_SPACING_GAPS ? median(gaps) : 0;
  const paragraphGap = Math.max(PARAGRAPH_GAP * pageLineHeight, lineGap + WIDE_SPACING_MARGIN * pageLineHeight);
  let currentParagraph = -1;
  let previous: LineInfo | undefined;
  for (const l of lines) {
    const gap = previous ? l.core.y0 - previous.core.y1 : Infinity;
    const close = previous !== undefined && gap <= paragraphGap;
    // Tesseract also splits paragraphs mid-sentence; a close line starting at the same left edge
    // continues a paragraph whose last line does not end a sentence, or runs to the paragraph's
    // right edge (a sentence ending at the end of a full line of justified text).
    const last = pending[pending.length - 1];
    const continues =
      close &&
      last !== undefined &&
      Math.abs(l.core.x0 - pending[0]!.core.x0) <= pageLineHeight &&
      (!/[.!?:;]["')\]]?$/.test(lineText(last)) || (pending.length >= 2 && last.core.x1 >= Math.max(...pending.map((p) => p.core.x1)) - pageLineHeight));
    // A bold line (a heading set apart by weight) and the text after it are two paragraphs.
    if ((l.paragraph !== currentParagraph && !continues) || !close || Boolean(previous?.line.bold) !== Boolean(l.line.bold)) flush();
    currentParagraph = l.paragraph;
    previous = l;
    pending.push(l);
  }
  flush();
  return out;
}

/**
 * A line whose first or last cells (words a wide gap apart) are all specks of a graphic (a logo
 * beside a page's title), with those cells as lines of their own, each a paragraph `newParagraph`
 * numbers: they are not read into the text beside them.
 */
function withoutSpecks(l: LineInfo, newParagraph: () => number): LineInfo[] {
  // A cell of marks alone ("©", ")") stays with its line: a paragraph without a letter or digit is left out.
  const isSpeck = (cell: readonly OcrWord[]): boolean => cell.every((w) => isSpeckWord(w)) && cell.some((w) => /[\p{L}\p{N}]/u.test(w.text));
  let a = 0;
  let b = l.cells.length;
  while (a < b && isSpeck(l.cells[a]!)) a++;
  while (b > a && isSpeck(l.cells[b - 1]!)) b--;
  if (a === b || (a === 0 && b === l.cells.length)) return [l];
  const part = (cells: OcrWord[][], paragraph: number): LineInfo => {
    const words = cells.flat();
    const core = {
      x0: words[0]!.bbox.x0,
      y0: median(words.map((w) => w.bbox.y0)),
      x1: Math.max(...words.map((w) => w.bbox.x1)),
      y1: median(words.map((w) => w.bbox.y1)),
    };
    return { ...l, paragraph, words, cells, core };
  };
  return [
    ...l.cells.slice(0, a).map((c) => part([c], newParagraph())),
    part(l.cells.slice(a, b), l.paragraph),
    ...l.cells.slice(b).map((c) => part([c], newParagraph())),
  ];
}

const isSpeckWord = (w: OcrWord): boolean => isOcrSpeck(w.text, w.confidence);

// The page's running text: lines of at least this many characters.
const BODY_LINE_CHARS = 20;
// A heading is at most this long (as on PDF pages, `pdf/headings.ts`).
const MAX_HEADING_LINES = 3;
const MAX_HEADING_CHARS = 150;
const MAX_HEADING_WORDS = 16;
// Rows this much taller than the running text's are set larger.
const LARGER = 1.12;
const CLAUSE_END_RE = /[.,;]$/;
const TYPED_AS_TEXT = new Set(['Title', 'NarrativeText', 'UncategorizedText']);

/**
 * A paragraph's type as on an OCR'd PDF page: a Title is set apart from the running text (rows
 * `bodyRow` pixels tall) by weight or size and is no row of cells, or is a line in capitals or
 * numbered "2.1" (as the PDF layout's heading test has it); text worded like a title but set like the
 * body is UncategorizedText. Without running text on the page, the text alone decides.
 */
function headingTyped(c: ClassifiedText, lines: readonly LineInfo[], bodyRow: number): ClassifiedText {
  if (!TYPED_AS_TEXT.has(c.type) || !(bodyRow > 0)) return c;
  const text = c.text;
  const words = lines.flatMap((l) => l.words);
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const speck = words.every((w) => isSpeckWord(w));
  const short = lines.length <= MAX_HEADING_LINES && text.length <= MAX_HEADING_CHARS && text.split(/\s+/).length <= MAX_HEADING_WORDS;
  const bold = lines.every((l) => l.line.bold);
  const large = median(lines.map((l) => l.height)) >= LARGER * bodyRow;
  const titled = c.type === 'Title' || classifyText(text.replace(/[.:]$/, '')).type === 'Title';
  // A line parted by wide gaps is a row of cells or labels ("Dataset | Base Model | Notes"), not a heading.
  const cells = lines.some((l) => l.cells.length > 1);
  if (!speck && !cells && short && (bold || large) && titled && !CLAUSE_END_RE.test(text)) return { type: 'Title', text };
  if (c.type !== 'Title') return c;
  const capitals = /^[\p{Lu}\P{L}]+$/u.test(text) && letters >= 4;
  const numbered = (numberDepth(text) ?? 0) >= 1 && text.split(/\s+/).length <= 8;
  return !speck && lines.length === 1 && (capitals || numbered) ? c : { type: 'UncategorizedText', text };
}
