/**
 * Which PDF blocks are headings, and at what level. A heading is told apart from body text by what
 * the PDF shows a reader on the page: a larger size or a bolder (or other) font than the page's body
 * text, section numbering such as "2.1.6", and isolation (a short block of its own that does not end
 * like a sentence). The document outline, when there is one, gives levels. What looks like a heading but is a table
 * cell, a figure label or a line of code is not one: text smaller than the body, short text with
 * other short text beside it on the same line, text inside a picture, fixed-pitch or code-like text.
 *
 * Levels follow the Python library `unstructured`: `category_depth` 0 for the top level. The
 * outline's level comes first, then the section number's ("2.1" is 1), then the rank of the
 * heading's style (size, then weight) among the document's heading styles.
 */
import type { Box, PageLayout, TextBlock } from './layout-types.js';
import { OCR_SPECK_FONT } from './ocr-fragments.js';
import { argmax } from './text-lines.js';

/** One entry of the document outline (bookmarks), flattened in document order. */
export interface OutlineEntry {
  title: string;
  /** 0 for a top-level entry. */
  level: number;
  /** 1-based page the entry points to, when known. */
  page?: number;
}

/**
 * The body text of a page: what a heading stands out from. Read from the page alone, so that a
 * page is typed the same whether the PDF is partitioned whole or split into page ranges (the
 * hosted API client's split mode) and `chunk_by_title` cuts it at the same places.
 */
export interface BodyStyle {
  /** The body text's font size: the commonest size of paragraph text, by characters. */
  bodySize: number;
  /** The body text's font, and whether it is bold (undefined when the engine does not say). */
  bodyFont: string;
  bodyBold: boolean | undefined;
  /** Fonts of tables and paragraphs longer than a heading: running text, whatever their weight. */
  textFonts?: ReadonlySet<string>;
}

/** What heading detection knows of a page: its body text, and the document outline's titles by normalized text. */
export interface HeadingContext extends BodyStyle {
  outline: Map<string, OutlineEntry[]>;
}

/** A heading found by {@link headingOf}. */
export interface HeadingInfo {
  /** Level from the outline or the section number, when either gives one. */
  depth?: number;
  /** Size and weight, to rank headings without such a level. */
  style: string;
  size: number;
}

// Paragraph text, for the body size: more than one line, or a line of some length.
const PARAGRAPH_CHARS = 40;
// A heading is at most this long.
const MAX_LINES = 3;
const MAX_CHARS = 150;
const MAX_WORDS = 16;
// Size ratios to the body text.
const LARGER = 1.12;
// Set this much larger, a heading may start in lower case.
const MUCH_LARGER = 1.3;
const NOT_SMALLER = 0.95;
// Text smaller than this (points) is a label, a footnote or a figure's lettering, never a heading:
// on a page that is mostly a drawing the labels themselves look like the body text.
const MIN_HEADING_SIZE = 7;
// An outline list indents a level by at most this many line heights.
const LIST_INDENT = 4;
// Other short text on the same line within this many body sizes: a table row or figure labels.
const NEIGHBOUR_GAP = 4;

const SECTION_NUMBER_RE = /^(\d{1,2}(?:\.\d{1,3}){0,5})\.?\s+(?=[\p{L}(“"'])/u;
// Right-to-left text numbers its sections "3-" and "5-2", which read out in visual order as "-3" and "-2-5".
const RTL_SECTION_NUMBER_RE = /^-(\d{1,2}(?:-\d{1,2}){0,3})\s+(?=[\p{Script=Arabic}\p{Script=Hebrew}])/u;
const ROMAN_NUMBER_RE = /^(?:[IVX]{1,5}|[\u2160-\u216B])\s*[.)]\s*(?=\p{L})/u;
const CHAPTER_RE = /^(?:chapter|part|appendix|annex|section|chapitre|kapitel|anhang)\s+(?:\d+|[IVX]+|[A-Z])\b/i;
const SENTENCE_END_RE = /[.,;!?。，；]$/u;
const CLAUSE_END_RE = /[.,;。，；]$/u;
// A word: two letters or more (with inner apostrophes or hyphens), bare or in brackets or quotes.
const WORD_RE = /^[\p{P}\p{S}]*\p{L}[\p{L}\p{M}]*(?:['’-]?[\p{L}\p{M}]+)+[\p{P}\p{S}]*$/u;
const CODE_RE =
  /[;{}]|=>|==|!=|\(\)|\/\/|^\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|GRANT|FROM|WHERE|import|def|function|var|let|const|return|public|private|#include|#define)\b|\w\(\S*\)$|^\s*[<$#>]/u;

/** Lower case, letters and digits only: how outline titles and block texts are compared. */
export function headingKey(text: string): string {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
}

/** The level a section number gives: "2" and "II." 0, "2.1" 1, "2.1.6" 2, "Chapter 3" 0; undefined for none. */
export function sectionDepth(text: string): number | undefined {
  return numberDepth(text) ?? (CHAPTER_RE.test(text.trim()) ? 0 : undefined);
}

/** Like {@link sectionDepth}, for a leading number only ("2.1.6", "IV.", right-to-left "-2-5"), not a word such as "Section 1". */
export function numberDepth(text: string): number | undefined {
  const t = text.trim();
  const m = SECTION_NUMBER_RE.exec(t);
  if (m) return m[1]!.split('.').length - 1;
  const rtl = RTL_SECTION_NUMBER_RE.exec(t);
  if (rtl) return rtl[1]!.split('-').length - 1;
  return ROMAN_NUMBER_RE.test(t) ? 0 : undefined;
}

/**
 * The body text of `pages` (in practice one page; see {@link BodyStyle}). Paragraphs of several
 * lines and table text say what the running text looks like; single lines (headings among them)
 * count only where there is no such text, and code (a fixed-pitch font) only where the other text
 * is no paragraph.
 */
export function bodyStyle(pages: readonly (PageLayout | undefined)[]): BodyStyle {
  const tiers: ((b: TextBlock) => boolean)[] = [
    (b) => b.kind === 'table' || (b.kind === 'text' && b.lineCount >= 2),
    (b) => b.kind === 'text' && b.text.length >= PARAGRAPH_CHARS,
    (b) => b.kind !== 'image',
  ];
  const bodySize = commonest(pages, tiers, (b) => Math.round(b.size * 2) / 2) ?? 0;
  // A table's font is the one most of its cells are set in: on a page that is mostly tables, its body.
  const bodyFont = commonest(pages, tiers, (b) => b.font) ?? '';
  const bold = pages.find((p) => p?.fonts?.[bodyFont])?.fonts?.[bodyFont]?.bold;
  const textFonts = new Set<string>();
  for (const page of pages) for (const b of page?.blocks ?? []) if (b.kind === 'table' || b.lineCount > MAX_LINES) textFonts.add(b.font);
  return { bodySize, bodyFont, bodyBold: bold, textFonts };
}

/** The commonest value of `key` by characters, over the blocks of the first tier that has any. */
function commonest<K>(pages: readonly (PageLayout | undefined)[], tiers: ((b: TextBlock) => boolean)[], key: (b: TextBlock) => K | undefined): K | undefined {
  for (const counts of tiers) {
    for (const proportional of counts === tiers[tiers.length - 1] ? [false] : [true, false]) {
      const chars = new Map<K, number>();
      for (const page of pages) {
        for (const b of page?.blocks ?? []) {
          const k = key(b);
          if (k === undefined || !counts(b) || !b.text.trim() || (proportional && page!.fonts?.[b.font]?.mono)) continue;
          chars.set(k, (chars.get(k) ?? 0) + b.text.length);
        }
      }
      if (chars.size > 0) return argmax(chars);
    }
  }
  return undefined;
}

/** The document outline's entries by normalized title, for {@link HeadingContext.outline}. */
export function outlineIndex(outline: readonly OutlineEntry[] = []): Map<string, OutlineEntry[]> {
  const map = new Map<string, OutlineEntry[]>();
  for (const e of outline) {
    const k = headingKey(e.title);
    if (!k) continue;
    const list = map.get(k);
    if (list) list.push(e);
    else map.set(k, [e]);
  }
  return map;
}

/** The heading context of `pages` with the document's outline. */
export function headingContext(pages: readonly (PageLayout | undefined)[], outline: readonly OutlineEntry[] = []): HeadingContext {
  return { ...bodyStyle(pages), outline: outlineIndex(outline) };
}

/** Whether the text reads like code rather than a heading. */
export function looksLikeCode(text: string): boolean {
  return CODE_RE.test(text);
}

/**
 * Whether `block` (a text block of `page`, not page furniture) is a heading, and what the PDF says
 * of its level. `possibleTitle` is what the text alone says (short, worded like a title).
 */
export function headingOf(block: TextBlock, page: PageLayout, ctx: HeadingContext, possibleTitle: boolean): HeadingInfo | undefined {
  // OCR'd specks of a logo or a chart are no heading, whatever their size.
  if (block.kind !== 'text' || block.font === OCR_SPECK_FONT) return undefined;
  const text = block.text.trim();
  const style = page.fonts?.[block.font];
  const body = ctx.bodySize;
  // The cheap tests first: most blocks are too long, or smaller than the body text.
  if (block.lineCount > MAX_LINES || text.length > MAX_CHARS || block.size < MIN_HEADING_SIZE) return undefined;
  if (!(body > 0) || block.size < NOT_SMALLER * body || text.split(/\s+/).length > MAX_WORDS) return undefined;
  const large = block.size >= LARGER * body;
  // Bold where the body is not; when the engine does not tell weights, a font of no running text.
  const bolder = style ? style.bold && !ctx.bodyBold : block.font !== ctx.bodyFont && ctx.bodyBold === undefined && !ctx.textFonts?.has(block.font);
  if (!hasWord(text)) return undefined;
  // A heading set apart by size or weight may ask or exclaim ("Let's swim!"); none ends like a clause.
  if ((large || bolder ? CLAUSE_END_RE : SENTENCE_END_RE).test(text)) return undefined;
  // Lower case starts a continued line, unless the text is set well apart ("heading level 1").
  if (/^\p{Ll}/u.test(text) && !(large && (bolder || block.size >= MUCH_LARGER * body))) return undefined;
  // Code is set in a fixed-pitch font the body text does not use, and not larger than the body.
  if ((style?.mono && !large && !page.fonts?.[ctx.bodyFont]?.mono) || looksLikeCode(text)) return undefined;
  if (insideImage(block.box, page) || hasShortNeighbour(block, page, body) || isFigureLabel(block, page)) return undefined;
  const numbered = sectionDepth(text);
  if (numbered !== undefined && inNumberedList(block, page, numbered)) return undefined;
  // Looked up for a heading only: the outline gives levels only (a part of a split PDF has no
  // outline, and must find the same headings).
  const info = (): HeadingInfo => {
    const depth = outlineEntry(text, page.pageNumber, ctx)?.level ?? numbered;
    const size = Math.round(block.size * 2) / 2;
    const key = `${size}|${style?.bold ? 'b' : ''}`;
    return depth !== undefined ? { depth, style: key, size } : { style: key, size };
  };
  if (large || bolder) return (possibleTitle || numbered !== undefined) && !leadsSameText(block, page) ? info() : undefined;
  // The only text of its page but smaller print (a slide's title, a divider page): it is its own body.
  if (possibleTitle && isSoleText(block, page)) return info();
  // Body-sized, body-weight text: a section number of two levels or more ("2.1") on a line of its
  // own ("1. Step" is a list item), or capitals.
  if (numbered !== undefined && numbered >= 1 && block.lineCount === 1 && text.split(/\s+/).length <= 8) return info();
  if (possibleTitle && block.lineCount === 1 && isCapitals(text)) return info();
  return undefined;
}

/** Whether the text has a word at all: "Pls5J", "A-12" or "3.5 %" are codes, values or OCR noise. */
function hasWord(text: string): boolean {
  return text.split(/\s+/).some((t) => WORD_RE.test(t));
}

/**
 * Whether a numbered block sits in a list or a table of contents: a line of the same style right
 * above or below it, at its left edge, numbered at the same level ("5.1 Feeding" over "5.2 Breeding")
 * or one level off (an outline list: "1. Appendix" over "1.1. Terms" over "1.1.1. Detail").
 */
function inNumberedList(block: TextBlock, page: PageLayout, depth: number): boolean {
  const a = block.box;
  const h = a.y1 - a.y0;
  return page.blocks.some((o) => {
    if (o === block || o.kind !== 'text' || o.lineCount > 2 || o.font !== block.font || Math.abs(o.size - block.size) >= 0.5) return false;
    if (Math.max(o.box.y0 - a.y1, a.y0 - o.box.y1) > h) return false;
    const other = sectionDepth(o.text);
    if (other === depth) return Math.abs(o.box.x0 - a.x0) <= h;
    // An outline list indents each level under the one above.
    return other !== undefined && Math.abs(other - depth) === 1 && (o.box.x0 - a.x0) * (other - depth) >= -h && Math.abs(o.box.x0 - a.x0) <= LIST_INDENT * h;
  });
}

function outlineEntry(text: string, pageNumber: number, ctx: HeadingContext): OutlineEntry | undefined {
  if (ctx.outline.size === 0) return undefined;
  const list = ctx.outline.get(headingKey(text));
  return list?.find((e) => e.page === undefined || e.page === pageNumber);
}

/** Upper-case words ("INTRODUCTION", "TERMS OF USE"), at least four letters. */
function isCapitals(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '');
  return letters.length >= 4 && /^[\p{Lu}]+$/u.test(letters);
}

function insideImage(box: Box, page: PageLayout): boolean {
  const cx = (box.x0 + box.x1) / 2;
  const cy = (box.y0 + box.y1) / 2;
  return page.blocks.some((b) => b.kind === 'image' && cx > b.box.x0 && cx < b.box.x1 && cy > b.box.y0 && cy < b.box.y1);
}

/**
 * Whether another short text sits beside the block, on the same line and close by: cells of one
 * table row, labels of one figure. A paragraph beside it (another column) does not count.
 */
function hasShortNeighbour(block: TextBlock, page: PageLayout, body: number): boolean {
  const a = block.box;
  // The heading of a text column: a paragraph starts right under it, at its left edge.
  if (headsParagraph(block, page, body)) return false;
  const h = a.y1 - a.y0;
  for (const o of page.blocks) {
    if (o === block) continue;
    const b = o.box;
    const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    // Beside it means on the same line: not a taller block (a paragraph, a line of vertical text).
    if (overlap < 0.5 * Math.min(h, b.y1 - b.y0) || b.y1 - b.y0 > 3 * h) continue;
    const gap = Math.max(b.x0 - a.x1, a.x0 - b.x1);
    // Text of the same style in line with it, over one table, is a row of header cells however far
    // apart ("Food", "Calories"); an entry's heading and its category over a paragraph are not.
    const cells =
      o.font === block.font &&
      Math.abs(o.size - block.size) < 0.5 &&
      Math.min(Math.abs(b.y0 - a.y0), Math.abs(b.y1 - a.y1)) < 0.2 * block.size &&
      page.blocks.some(
        (u) =>
          u.kind === 'table' &&
          u.box.y0 >= Math.max(a.y1, b.y1) - 1 &&
          u.box.y0 - Math.max(a.y1, b.y1) <= 3 * block.size &&
          overlapsX(u.box, a) &&
          overlapsX(u.box, b),
      );
    if (gap < 0 || (gap > NEIGHBOUR_GAP * body && !cells)) continue;
    // A stray fragment ("i-" of a hyphenated word in the next column) is no cell or label.
    if (o.kind === 'text' && o.lineCount <= 2 && o.text.length <= 60 && (o.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) >= 3) return true;
  }
  return false;
}

/**
 * Whether the block is one of the labels of a figure drawn on a page without running text: a page
 * where no text of readable size but a caption is a paragraph or a table, and two more short texts share the
 * block's style (the parts of a diagram). A slide's title or a lone heading has a style of its own.
 */
function isFigureLabel(block: TextBlock, page: PageLayout): boolean {
  const readable = (b: TextBlock): boolean => b.size >= MIN_HEADING_SIZE && b.text.trim().length > 0;
  const paragraph = (b: TextBlock): boolean => b.kind === 'text' && b.text.length >= PARAGRAPH_CHARS && b.textClass?.type !== 'FigureCaption';
  if (page.blocks.some((b) => readable(b) && (b.kind === 'table' || paragraph(b)))) return false;
  let same = 0;
  for (const o of page.blocks) if (o !== block && o.kind === 'text' && o.font === block.font && Math.abs(o.size - block.size) < 0.5) same++;
  return same >= 2;
}

/** Whether every other text of the page is in smaller print than the block (page numbers, a footer, a subtitle). */
function isSoleText(block: TextBlock, page: PageLayout): boolean {
  return page.blocks.every((o) => o === block || o.kind === 'image' || !o.text.trim() || o.size < NOT_SMALLER * block.size);
}

/** Whether text of the block's own style follows right under it: a lead-in line ("Let's introduce a list:"), not a heading. */
function leadsSameText(block: TextBlock, page: PageLayout): boolean {
  const a = block.box;
  return page.blocks.some(
    (o) =>
      o !== block &&
      o.kind === 'text' &&
      o.font === block.font &&
      Math.abs(o.size - block.size) < 0.5 &&
      o.box.y0 >= a.y1 - 1 &&
      o.box.y0 - a.y1 <= 0.5 * block.size &&
      Math.min(a.x1, o.box.x1) > Math.max(a.x0, o.box.x0),
  );
}

const overlapsX = (u: Box, v: Box): boolean => Math.min(u.x1, v.x1) > Math.max(u.x0, v.x0);

function headsParagraph(block: TextBlock, page: PageLayout, body: number): boolean {
  const a = block.box;
  return page.blocks.some(
    (o) => o.kind === 'text' && o.lineCount >= 3 && o.box.y0 >= a.y1 - 1 && o.box.y0 - a.y1 <= 2 * body && Math.abs(o.box.x0 - a.x0) <= body,
  );
}

/**
 * Gives each heading its `category_depth`: the outline's or section number's level where there is
 * one; otherwise the level of numbered headings set in the same style, or else the rank of its
 * style among the document's heading styles (larger first, bold before regular at one size), where
 * a document title in a style of its own shares depth 0 with the top-level sections.
 */
export function headingDepths(headings: readonly HeadingInfo[]): number[] {
  const styleDepth = new Map<string, Map<number, number>>();
  for (const h of headings) {
    if (h.depth === undefined) continue;
    const m = styleDepth.get(h.style) ?? new Map<number, number>();
    m.set(h.depth, (m.get(h.depth) ?? 0) + 1);
    styleDepth.set(h.style, m);
  }
  const styles = [...new Set(headings.map((h) => h.style))].sort((x, y) => {
    const [sx = '0', bx = ''] = x.split('|');
    const [sy = '0', by = ''] = y.split('|');
    return Number(sy) - Number(sx) || by.length - bx.length;
  });
  // A document title (the first heading, in a style no other heading has) is no section: it and the
  // top-level sections are both depth 0, as Docling's documents give a title and level-1 sections.
  const first = headings[0]?.style;
  const title = first === styles[0] && headings.filter((h) => h.style === first).length === 1 && headings.length > 1;
  const rank = new Map(styles.map((s, i) => [s, title && i > 0 ? i - 1 : i]));
  return headings.map((h) => {
    if (h.depth !== undefined) return h.depth;
    const numbered = styleDepth.get(h.style);
    if (numbered) return argmax(numbered)!;
    return rank.get(h.style) ?? 0;
  });
}
