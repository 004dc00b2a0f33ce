/**
 * pdf.js text-layer items -> {@link TextFragment}s in the displayed page's frame.
 *
 * pdf.js gives each item a text-space matrix (`transform`), an advance `width` in user space and a
 * font id; ascent and descent come from `styles`. Combining the item matrix with the viewport
 * matrix puts the item on the displayed page (so a `/Rotate 270` scan reads upright), and the
 * direction of its x axis tells horizontal from rotated text.
 */
import type { TextFragment } from '../layout-types.js';

/** The fields of a pdf.js `TextItem` used here. */
export interface PdfTextItem {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
}

/** The fields of a pdf.js text style used here. */
export interface PdfTextStyle {
  ascent?: number;
  descent?: number;
}

/** Result of {@link fragmentsFromTextContent}. */
export interface PageFragments {
  fragments: TextFragment[];
  /** Letters and digits seen. */
  textChars: number;
  /** Characters typical of a broken text layer. */
  badChars: number;
}

const LIGATURES = /[\uFB00-\uFB06]/g;
const CONTROL_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/**
 * Counts letters/digits and the characters an undecodable font gives (U+FFFD, C0 controls other
 * than tab and newline, the private use area). A character loop: this runs on every item of every
 * page, where regular-expression match arrays cost more than the rest of the item's handling.
 */
export function countChars(s: string): { text: number; bad: number } {
  let text = 0;
  let bad = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a)) text++;
      else if (c < 0x20 && c !== 0x09 && c !== 0x0a) bad++;
    } else if (c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff)) bad++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      // A surrogate pair: one character (supplementary planes are letters often enough: CJK Ext. B).
      text++;
      i++;
    } else if (LETTER_OR_DIGIT.test(s[i]!)) text++;
  }
  return { text, bad };
}

/** Replaces the Latin ligature characters (U+FB00..U+FB06) with their letters; nothing else. */
export function normalizeLigatures(text: string): string {
  return text.replace(LIGATURES, (c) => c.normalize('NFKC'));
}

/**
 * Converts text items to fragments. Whitespace-only items are dropped: pdf.js uses them for gaps,
 * and their widths would glue neighbouring table cells or columns together.
 *
 * @param viewportTransform - `page.getViewport({ scale: 1 }).transform`
 */
export function fragmentsFromTextContent(
  items: readonly unknown[],
  styles: Readonly<Record<string, PdfTextStyle | undefined>>,
  viewportTransform: readonly number[],
): PageFragments {
  const [va = 1, vb = 0, vc = 0, vd = -1, ve = 0, vf = 0] = viewportTransform;
  const fragments: TextFragment[] = [];
  let textChars = 0;
  let badChars = 0;
  for (const raw of items) {
    const item = raw as Partial<PdfTextItem>;
    if (typeof item.str !== 'string' || !item.transform) continue;
    const str = item.str;
    if (str.trim() === '') continue;
    const counts = countChars(str);
    textChars += counts.text;
    badChars += counts.bad;
    const [ia = 1, ib = 0, ic = 0, id = 1, ie = 0, iff = 0] = item.transform;
    // m = viewport x item (pdf.js Util.transform order).
    const a = va * ia + vc * ib;
    const b = vb * ia + vd * ib;
    const c = va * ic + vc * id;
    const d = vb * ic + vd * id;
    const e = va * ie + vc * iff + ve;
    const f = vb * ie + vd * iff + vf;
    let size = Math.hypot(c, d);
    if (!(size > 0)) size = Math.hypot(a, b);
    if (!(size > 0)) continue;
    const dir = quantizeDirection(Math.atan2(b, a));
    const style = styles[item.fontName ?? ''];
    let ascent = style?.ascent;
    let descent = style?.descent;
    if (ascent === undefined || !Number.isFinite(ascent) || ascent < 0.5 || ascent > 1.2) ascent = 0.85;
    if (descent === undefined || !Number.isFinite(descent) || descent > 0 || descent < -0.5) descent = -0.2;
    const [lx, ly] = toLocal(e, f, dir);
    const width = Math.max(0, item.width ?? 0);
    const text = normalizeLigatures(str.replace(CONTROL_CHARS, '').replace(/\s+/g, ' '));
    if (text.trim() === '') continue;
    fragments.push({
      text,
      x0: lx,
      x1: lx + (width > 0 ? width : size * 0.5 * text.length),
      top: ly - ascent * size,
      bottom: ly - descent * size,
      baseline: ly,
      size,
      font: item.fontName ?? '',
      dir,
    });
  }
  return { fragments, textChars, badChars };
}

/** Snaps an angle (radians, viewport frame) to 0, 90, 180 or 270 degrees. */
function quantizeDirection(angle: number): number {
  const deg = (angle * 180) / Math.PI;
  return (((Math.round(deg / 90) * 90) % 360) + 360) % 360;
}

const COS: Record<number, number> = { 0: 1, 90: 0, 180: -1, 270: 0 };
const SIN: Record<number, number> = { 0: 0, 90: 1, 180: 0, 270: -1 };

/** Page frame -> local frame of text running in direction `dir` (rotation by -dir). */
export function toLocal(x: number, y: number, dir: number): [number, number] {
  const cos = COS[dir] ?? 1;
  const sin = SIN[dir] ?? 0;
  return [x * cos + y * sin, -x * sin + y * cos];
}

/** Local frame of direction `dir` -> page frame (rotation by +dir). */
export function toPage(x: number, y: number, dir: number): [number, number] {
  const cos = COS[dir] ?? 1;
  const sin = SIN[dir] ?? 0;
  return [x * cos - y * sin, x * sin + y * cos];
}
