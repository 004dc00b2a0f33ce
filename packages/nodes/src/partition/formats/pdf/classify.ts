/**
 * Element types for PDF blocks. Page furniture (headers, footers, page numbers) is found by
 * position in the top or bottom margin band and by repetition across pages; everything else
 * follows `unstructured`'s `element_from_text` order (bullets, e-mail, address, numbered
 * list, narrative, title, uncategorized), with the font size as an extra title signal.
 */
import type { ElementType } from '@quarry/core';
import {
  cleanBullets,
  isBulletedText,
  isEmailAddress,
  isPossibleNarrativeText,
  isPossibleNumberedList,
  isPossibleTitle,
  isUsCityStateZip,
  narrativeWithoutTagger,
} from '../../text-classify.js';
import { bodyStyle, headingOf, sectionDepth, type BodyStyle, type HeadingContext, type HeadingInfo } from './headings.js';
import type { BlockTextClass, PageLayout, TextBlock } from './layout-types.js';
import { BULLET_START_RE, stripBullet } from './text-patterns.js';

/** The element types given to page furniture. */
export type PageFurniture = 'Header' | 'Footer' | 'PageNumber';

// `unstructured`'s header/footer test: the block's vertical centre is in the top or bottom 7 %.
const MARGIN_BAND = 0.07;
// A wider band counts when the same text sits at the same height on other pages.
const REPEAT_BAND = 0.1;
// A block this much larger than the body text is not furniture by position alone.
const LARGER_THAN_BODY = 1.12;
// Repeated furniture may drift a little between pages.
const REPEAT_TOLERANCE = 0.015;

const PAGE_NUMBER_RE = /^(?:(?:page|p\.|pg\.?|seite|página|pagina)\s*)?[-–—([]?\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]]?(?:\s*(?:of|\/|von|de)\s*\d{1,4})?$/i;

/** Whether text reads like a page number ("12", "- 3 -", "Page 4 of 9", "xii"). */
export function isPageNumberText(text: string): boolean {
  return PAGE_NUMBER_RE.test(text.trim());
}

function furnitureKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/**
 * Finds headers, footers and page numbers. A short block centred in the top or bottom 7 % of its
 * page is furniture by position (`unstructured`'s rule); a one- or two-line block centred in the top
 * or bottom 10 % is furniture when text equal up to its digits appears at about the same height on
 * another page. `bodyOf` gives a page's body text (a caller that has it already saves working it out again).
 */
export function detectPageFurniture(
  pages: readonly (PageLayout | undefined)[],
  bodyOf: (page: PageLayout) => BodyStyle = (page) => bodyStyle([page]),
): Map<TextBlock, PageFurniture> {
  interface Candidate {
    block: TextBlock;
    page: number;
    zone: 'top' | 'bottom';
    center: number;
    key: string;
  }
  const candidates: Candidate[] = [];
  const byKey = new Map<string, Candidate[]>();
  for (const page of pages) {
    if (!page || !(page.height > 0)) continue;
    for (const block of page.blocks) {
      if (block.kind !== 'text') continue;
      const center = (block.box.y0 + block.box.y1) / 2 / page.height;
      const zone = center < REPEAT_BAND ? 'top' : center > 1 - REPEAT_BAND ? 'bottom' : undefined;
      if (!zone) continue;
      const c: Candidate = { block, page: page.pageNumber, zone, center, key: `${zone}|${furnitureKey(block.text)}` };
      candidates.push(c);
      const list = byKey.get(c.key);
      if (list) list.push(c);
      else byKey.set(c.key, [c]);
    }
  }
  const result = new Map<TextBlock, PageFurniture>();
  const bodies = new Map(pages.filter((p) => p !== undefined).map((p) => [p.pageNumber, bodyOf(p).bodySize]));
  for (const c of candidates) {
    const body = bodies.get(c.page) ?? 0;
    // Running heads and feet are not set larger than the body text; a title at the top of a page is.
    const inBand = (c.zone === 'top' ? c.center < MARGIN_BAND : c.center > 1 - MARGIN_BAND) && !(body > 0 && c.block.size >= LARGER_THAN_BODY * body);
    const short = c.block.lineCount <= 3 && c.block.text.length <= 200;
    // Running heads and feet are a line or two; a repeated paragraph is boilerplate, not furniture.
    const repeated =
      c.block.lineCount <= 2 &&
      c.block.text.length <= 120 &&
      (byKey.get(c.key) ?? []).some((o) => o.page !== c.page && Math.abs(o.center - c.center) <= REPEAT_TOLERANCE);
    if (!((inBand && short) || repeated)) continue;
    result.set(c.block, isPageNumberText(c.block.text) ? 'PageNumber' : c.zone === 'top' ? 'Header' : 'Footer');
  }
  return result;
}

const CAPTION_RE =
  /^(?:(?:fig(?:ure)?\.?|table|tab\.|chart|diagram|illustration|photo|plate|exhibit|listing|algorithm)\s*[\dIVX]+(?:[.-]\d+)*[.:]?(?:\s|$)|[[(<]?(?:그림|표|図|图|圖|表)\s*\d+(?:[-.]\d+)*[\])>.:]?\s)/i;

/** A block's element type and its text (bullets removed from list items); for a Title, what the PDF says of its level. */
export interface BlockClass {
  type: ElementType;
  text: string;
  heading?: HeadingInfo;
}

/** Options of {@link classifyBlockText}. */
export interface BlockTextOptions {
  /**
   * Whether the part-of-speech tagger may run (default true). When false, a block whose type
   * depends on the tagger is left unclassified (`undefined`), for a thread that must not load the
   * tagger's dictionaries.
   */
  tagger?: boolean;
}

/**
 * What a block's text alone says about its type; the expensive part of classification (sentence
 * splitting, part-of-speech tagging), so it runs in the page stage, on whichever thread laid the
 * page out. `undefined` for a block without text.
 */
export function classifyBlockText(block: TextBlock, options: BlockTextOptions = {}): BlockTextClass | undefined {
  const text = block.text.trim();
  if (!text) return undefined;
  if (block.kind === 'table') return { type: 'Table', text, possibleTitle: false };
  if (block.kind === 'image') return { type: 'Image', text, possibleTitle: false };
  // PDFs draw bullets with glyphs the shared list does not know (Symbol and Wingdings bullets).
  if (isBulletedText(text) || BULLET_START_RE.test(text)) {
    const item = isBulletedText(text) ? cleanBullets(text) : stripBullet(text);
    return item ? { type: 'ListItem', text: item, possibleTitle: false } : undefined;
  }
  if (isEmailAddress(text)) return { type: 'EmailAddress', text, possibleTitle: false };
  if (isUsCityStateZip(text)) return { type: 'Address', text, possibleTitle: false };
  if (isPossibleNumberedList(text)) return { type: 'ListItem', text, possibleTitle: false };
  if (CAPTION_RE.test(text) && block.lineCount <= 6) return { type: 'FigureCaption', text, possibleTitle: false };
  // Long blocks are not titles, whatever their words look like.
  const possibleTitle = block.lineCount <= 3 && isPossibleTitle(text);
  const narrative = options.tagger === false ? narrativeWithoutTagger(text) : isPossibleNarrativeText(text);
  if (narrative === undefined) return undefined;
  if (narrative || isProseInOtherScript(text)) return { type: 'NarrativeText', text, possibleTitle };
  return { type: possibleTitle ? 'Title' : 'UncategorizedText', text, possibleTitle };
}

/**
 * Text mostly in a script other than Latin, long enough to be prose. The shared heuristics are
 * English ones: they count capitalized words and tokens made of letters only, and text written
 * without spaces (Japanese, Chinese) has no such tokens at all.
 */
function isProseInOtherScript(text: string): boolean {
  let letters = 0;
  let latin = 0;
  for (const ch of text) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (/\p{Script=Latin}/u.test(ch)) latin++;
  }
  return letters >= 8 && latin * 2 < letters && letters * 2 >= [...text.replace(/\s+/g, '')].length;
}

// Types a heading may have been given from its text alone.
const HEADING_CANDIDATES = new Set<ElementType>(['Title', 'NarrativeText', 'UncategorizedText']);

/**
 * Classifies a block of `page` that is not page furniture; `undefined` when it has no text. A
 * Title is what {@link headingOf} finds a heading (a short block in a larger or bolder font, with
 * a section number, or in the outline, ...); text worded like a title but set like the body (a
 * table cell, a label) is UncategorizedText.
 */
export function classifyBlock(block: TextBlock, page: PageLayout, ctx: HeadingContext): BlockClass | undefined {
  const cls = block.textClass ?? classifyBlockText(block);
  if (!cls) return undefined;
  // "1. Introduction" (or right-to-left "-3 ...", its dash taken for a bullet) reads like a numbered
  // list item; its font can say it is a heading, whose number is part of its text.
  const numbered = cls.type === 'ListItem' && sectionDepth(block.text.trim()) !== undefined;
  if (HEADING_CANDIDATES.has(cls.type) || numbered) {
    const heading = headingOf(block, page, ctx, cls.possibleTitle);
    if (heading) return { type: 'Title', text: numbered ? block.text.trim() : cls.text, heading };
    if (cls.type === 'Title') return { type: 'UncategorizedText', text: cls.text };
  }
  return { type: cls.type, text: cls.text };
}
