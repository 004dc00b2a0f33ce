/**
 * One page's characters from PDFium's text page -> {@link TextFragment}s, the same runs the pdf.js
 * path produces from its text items: characters of one font and size on one baseline, split where
 * pdf.js splits its items (a gap over 0.6 em, a step back over 0.2 em, a baseline shift over a
 * quarter em, a space glyph followed by almost no gap), with a space where pdf.js inserts one (a gap
 * over 0.102 em). PDFium's own generated spaces and line breaks are ignored, and so are space
 * glyphs: spacing follows the geometry alone, as with pdf.js.
 *
 * Coordinates are put in the displayed page's frame (page box and `/Rotate` applied), then in the
 * text's local frame, exactly as `pdfjs/text-items.ts` does for pdf.js items.
 */
import type { FontStyle, TextFragment } from '../layout-types.js';
import type { PageText } from '../page-layout.js';
import { countChars, normalizeLigatures, toLocal } from '../pdfjs/text-items.js';
import type { Pdfium } from './module.js';
import { readPdfiumRulings } from './paths.js';

// pdf.js's text-content thresholds, in font sizes (see the module comment).
const SPACE_MIN_EM = 0.102;
const NOT_A_SPACE_EM = 0.03;
const SPLIT_GAP_EM = 0.6;
const SPLIT_BACK_EM = -0.2;
const SPLIT_SHIFT_EM = 0.25;

/** What is known of a PDFium text object: the same for all its characters. */
interface ObjectInfo {
  font: string;
  size: number;
  /** The font size operand (`Tf`), which pdf.js compares to end an item. */
  fontSize: number;
  dir: number;
  ascent: number;
  descent: number;
  /** Text-space to user-space matrix entries `a` and `b`, for advance widths. */
  a: number;
  scaleX: number;
}

/** A run being built; its text is in {@link RunText} (one run is open at a time). */
interface Run {
  info: ObjectInfo;
  /** Whether `text` holds a character that cleaning may change (white space other than the single spaces inserted, a ligature). */
  odd: boolean;
  x0: number;
  x1: number;
  baseline: number;
}

/**
 * The UTF-16 code units of the open run. Appending a character to a string makes a new string
 * object for each character of the page; the run's string is made once, when it is flushed
 * (a 619-page PDF's 2 million characters: a tenth of the time in the collector).
 */
class RunText {
  private units = new Uint16Array(256);
  private length = 0;

  /** Appends the character `u` (a code point; two code units above U+FFFF, as `String.fromCodePoint`). */
  push(u: number): void {
    if (this.length + 2 > this.units.length) {
      const grown = new Uint16Array(this.units.length * 2);
      grown.set(this.units);
      this.units = grown;
    }
    if (u > 0xffff) {
      u -= 0x10000;
      this.units[this.length++] = 0xd800 + (u >> 10);
      this.units[this.length++] = 0xdc00 + (u & 0x3ff);
    } else this.units[this.length++] = u;
  }

  /** The text appended since the last take, which empties it. */
  take(): string {
    let text = '';
    // In slices: `apply` puts each code unit on the stack.
    for (let at = 0; at < this.length; at += RUN_TEXT_SLICE) {
      text += String.fromCharCode.apply(null, this.units.subarray(at, Math.min(this.length, at + RUN_TEXT_SLICE)) as unknown as number[]);
    }
    this.length = 0;
    return text;
  }
}

const RUN_TEXT_SLICE = 4096;
const SPACE = 0x20;

/** A font's ascent and descent (in font sizes) and style. */
interface FontMetrics {
  ascent: number;
  descent: number;
  style: FontStyle;
}

/** A page's font metrics, keyed by PDFium font handle (handles are reused across pages). */
type FontMetricsCache = Map<number, FontMetrics>;

/**
 * Reads page `index` (0-based) of an open document: size, fragments, character counts and ruling
 * lines. The
 * page and its text page are closed before returning, whatever happens.
 */
export function readPdfiumPage(pdfium: Pdfium, doc: number, index: number): PageText {
  const { x, scratch } = pdfium;
  const page = x.FPDF_LoadPage(doc, index);
  if (!page) throw new Error(`page ${index + 1} cannot be loaded (PDFium error ${x.FPDF_GetLastError()})`);
  try {
    // The page box (crop box within the media box), as pdf.js's `view`.
    let bx0 = 0;
    let by0 = 0;
    let bx1 = 612;
    let by1 = 792;
    if (x.FPDF_GetPageBoundingBox(page, scratch)) {
      const f = pdfium.f32();
      const o = scratch >> 2;
      // FS_RECTF: left, top, right, bottom.
      bx0 = Math.min(f[o]!, f[o + 2]!);
      bx1 = Math.max(f[o]!, f[o + 2]!);
      by0 = Math.min(f[o + 1]!, f[o + 3]!);
      by1 = Math.max(f[o + 1]!, f[o + 3]!);
    }
    const rotation = ((x.FPDFPage_GetRotation(page) % 4) + 4) % 4;
    const view = viewportMatrix(bx0, by0, bx1, by1, rotation);
    const w = bx1 - bx0;
    const h = by1 - by0;
    const text = x.FPDFText_LoadPage(page);
    if (!text) throw new Error(`the text of page ${index + 1} cannot be read`);
    try {
      const fonts: FontMetricsCache = new Map();
      const result = fragmentsOfTextPage(pdfium, text, view, [bx0, by0, bx1, by1], fonts);
      const styles: Record<string, FontStyle> = {};
      for (const [handle, m] of fonts) styles[fontKey(handle)] = m.style;
      const width = rotation % 2 ? h : w;
      const height = rotation % 2 ? w : h;
      return { width, height, ...result, fonts: styles, rulings: readPdfiumRulings(pdfium, page, view, width, height) };
    } finally {
      x.FPDFText_ClosePage(text);
    }
  } finally {
    x.FPDF_ClosePage(page);
  }
}

/** User space -> displayed page (points, top-left origin), as pdf.js's viewport at scale 1. */
function viewportMatrix(x0: number, y0: number, x1: number, y1: number, rotation: number): number[] {
  switch (rotation) {
    case 1:
      return [0, 1, 1, 0, -y0, -x0];
    case 2:
      return [-1, 0, 0, 1, x1, -y0];
    case 3:
      return [0, -1, -1, 0, y1, x1];
    default:
      return [1, 0, 0, -1, -x0, y1];
  }
}

function fragmentsOfTextPage(
  pdfium: Pdfium,
  tp: number,
  view: readonly number[],
  box: readonly number[],
  fonts: FontMetricsCache,
): { fragments: TextFragment[]; textChars: number; badChars: number } {
  const { x, scratch } = pdfium;
  const [va = 1, vb = 0, vc = 0, vd = -1, ve = 0, vf = 0] = view;
  const [bx0 = 0, by0 = 0, bx1 = 0, by1 = 0] = box;
  const fragments: TextFragment[] = [];
  let textChars = 0;
  let badChars = 0;
  const d = scratch >> 3;

  let run: Run | undefined;
  let prevEnd = 0;
  // Baseline of the previous character: like pdf.js, a shift is measured glyph to glyph, so a
  // slanted line stays one run.
  let prevLy = 0;
  let lastObject = -1;
  let info: ObjectInfo | undefined;
  let pendingSpace = false;
  let prevOx = NaN;
  let prevOy = NaN;

  const runText = new RunText();
  const flush = (r: Run): void => {
    const raw = runText.take();
    if (r.odd && raw.trim() === '') return;
    const counts = countChars(raw);
    textChars += counts.text;
    badChars += counts.bad;
    // Most runs are letters and single spaces between them, which cleaning leaves as they are.
    const cleaned = r.odd ? normalizeLigatures(raw.replace(/\s+/g, ' ')) : raw;
    const { info: o, baseline } = r;
    fragments.push({
      text: cleaned,
      x0: r.x0,
      x1: r.x1,
      top: baseline - o.ascent * o.size,
      bottom: baseline - o.descent * o.size,
      baseline,
      size: o.size,
      font: o.font,
      dir: o.dir,
    });
  };

  const n = x.FPDFText_CountChars(tp);
  for (let i = 0; i < n; i++) {
    let u = x.FPDFText_GetUnicode(tp, i);
    if (u < 0x20 && u !== 0x09) {
      // PDFium marks a hyphen that ends a line as U+0002; other controls carry no text.
      if (u === 0x02 && x.FPDFText_IsHyphen(tp, i) === 1) u = 0x2d;
      else continue;
    }
    if (u === 0xfffe || u === 0xffff) continue;
    // As in pdf.js, space glyphs only advance the pen: the gap to the next glyph decides the space.
    // PDFium generates nothing but spaces and line breaks (skipped above), so only a space needs
    // the generated test: one call less for every other character.
    if (isWhitespace(u)) {
      if (run && x.FPDFText_IsGenerated(tp, i) !== 1) pendingSpace = true;
      continue;
    }
    const object = x.FPDFText_GetTextObject(tp, i);
    if (object !== lastObject || !info) {
      lastObject = object;
      info = objectInfo(pdfium, tp, i, object, va, vb, vc, vd, fonts);
    }
    if (!(info.size > 0)) continue;
    if (!x.FPDFText_GetCharOrigin(tp, i, scratch, scratch + 8)) continue;
    const f64 = pdfium.f64();
    const ox = f64[d]!;
    const oy = f64[d + 1]!;
    // Not a character: the page fails here (and is read with pdf.js), as String.fromCodePoint would.
    if (u > 0x10ffff) throw new RangeError(`Invalid code point ${u}`);
    const odd = u >= 0x80 && (isOddSpace(u) || (u >= 0xfb00 && u <= 0xfb06));
    // A ligature PDFium split into its letters: every letter has the ligature's origin and width.
    if (run && ox === prevOx && oy === prevOy && run.info === info) {
      runText.push(u);
      run.odd ||= odd;
      continue;
    }
    prevOx = ox;
    prevOy = oy;
    // pdf.js leaves out glyphs drawn outside the page box (one starting just left of it may reach in).
    if (ox > bx1 || ox < bx0 - info.size * 2 || oy < by0 || oy > by1) continue;
    // Indexed, not destructured: a page's first pass runs before V8 optimizes this loop, and
    // destructuring there goes through the array's iterator for every character.
    const local = toLocal(va * ox + vc * oy + ve, vb * ox + vd * oy + vf, info.dir);
    const lx = local[0];
    const ly = local[1];
    const advance = advanceOf(pdfium, tp, i, info, lx, va, vb, vc, vd, ve, vf);
    if (run) {
      // As in pdf.js, the thresholds are those of the run's first glyph: a subscript stays in.
      const size = run.info.size;
      const gap = lx - prevEnd;
      const shift = Math.abs(ly - prevLy);
      // A change of font ends the run; a change of Tf only when it draws another size (pdf.js
      // compares Tf alone, which keeps a same-size run that a PDF set with two Tf/Tm pairs).
      let split =
        run.info !== info &&
        (run.info.font !== info.font || run.info.dir !== info.dir || (run.info.fontSize !== info.fontSize && Math.abs(info.size - size) > 0.01 * size));
      if (!split) {
        if (gap < SPLIT_BACK_EM * size || shift > size) split = true;
        else if (gap <= NOT_A_SPACE_EM * size) split = false;
        // A space glyph followed by a gap too narrow for a space ends pdf.js's item.
        else if (gap <= SPACE_MIN_EM * size) split = pendingSpace;
        else if (gap <= SPLIT_GAP_EM * size) runText.push(SPACE);
        else split = true;
        if (shift > SPLIT_SHIFT_EM * size) split = true;
      }
      if (split) {
        flush(run);
        run = undefined;
      }
    }
    pendingSpace = false;
    run ??= { info, odd: false, x0: lx, x1: lx, baseline: ly };
    runText.push(u);
    run.odd ||= odd;
    prevEnd = lx + advance;
    prevLy = ly;
    if (prevEnd > run.x1) run.x1 = prevEnd;
  }
  if (run) flush(run);
  return { fragments, textChars, badChars };
}

function objectInfo(
  pdfium: Pdfium,
  tp: number,
  i: number,
  object: number,
  va: number,
  vb: number,
  vc: number,
  vd: number,
  fonts: FontMetricsCache,
): ObjectInfo {
  const { x, scratch } = pdfium;
  const fontSize = x.FPDFText_GetFontSize(tp, i);
  let a = 1;
  let b = 0;
  let c = 0;
  let dd = 1;
  if (x.FPDFText_GetMatrix(tp, i, scratch)) {
    const f = pdfium.f32();
    const o = scratch >> 2;
    a = f[o]!;
    b = f[o + 1]!;
    c = f[o + 2]!;
    dd = f[o + 3]!;
  }
  // The character matrix on the displayed page (the viewport times the text matrix).
  const ma = va * a + vc * b;
  const mb = vb * a + vd * b;
  const mc = va * c + vc * dd;
  const md = vb * c + vd * dd;
  let size = Math.abs(fontSize) * Math.hypot(mc, md);
  if (!(size > 0)) size = Math.abs(fontSize) * Math.hypot(ma, mb);
  const dir = quantizeDirection(Math.atan2(mb, ma));
  const font = object ? x.FPDFTextObj_GetFont(object) : 0;
  let metrics = fonts.get(font);
  if (!metrics) {
    metrics = fontMetrics(pdfium, font);
    fonts.set(font, metrics);
  }
  return { font: fontKey(font), size, fontSize, dir, ascent: metrics.ascent, descent: metrics.descent, a, scaleX: Math.hypot(a, b) };
}

const fontKey = (handle: number): string => `pdfium-font-${handle}`;

// PDF font descriptor flags (PDF 32000 table 123).
const FIXED_PITCH = 1;
const FORCE_BOLD = 1 << 18;
// A base font name that says bold ("Arial-BoldMT", "ABCDEF+NotoSans-SemiBold").
const BOLD_NAME_RE = /bold|black|heavy|semibold|demi/i;
const MONO_NAME_RE = /mono|courier|consol|code|menlo/i;

/** Ascent and descent in font sizes, clamped to the pdf.js path's sane range, and the font's style. */
function fontMetrics(pdfium: Pdfium, font: number): FontMetrics {
  const { x, scratch } = pdfium;
  let ascent = NaN;
  let descent = NaN;
  let style: FontStyle = { bold: false, mono: false };
  if (font) {
    if (x.FPDFFont_GetAscent(font, 1, scratch)) ascent = pdfium.f32()[scratch >> 2]!;
    if (x.FPDFFont_GetDescent(font, 1, scratch)) descent = pdfium.f32()[scratch >> 2]!;
    style = fontStyle(pdfium, font);
  }
  if (!Number.isFinite(ascent) || ascent < 0.5 || ascent > 1.2) ascent = 0.85;
  if (!Number.isFinite(descent) || descent > 0 || descent < -0.5) descent = -0.2;
  return { ascent, descent, style };
}

/** Bold and fixed-pitch, from the font's weight, flags and base font name. */
function fontStyle(pdfium: Pdfium, font: number): FontStyle {
  const { x, scratch } = pdfium;
  const flags = x.FPDFFont_GetFlags(font);
  const weight = x.FPDFFont_GetWeight(font);
  // The scratch area is 64 bytes: long names are cut, which keeps the style part of most.
  const n = x.FPDFFont_GetBaseFontName(font, scratch, 64);
  const bytes = pdfium.u8().subarray(scratch, scratch + Math.max(0, Math.min(n, 64) - 1));
  const name = String.fromCharCode(...bytes);
  return {
    bold: weight >= 600 || (flags >= 0 && (flags & FORCE_BOLD) !== 0) || BOLD_NAME_RE.test(name.replace(/^[A-Z]{6}\+/, '')),
    mono: (flags >= 0 && (flags & FIXED_PITCH) !== 0) || MONO_NAME_RE.test(name),
  };
}

/**
 * The advance of character `i` along its text direction, in points. PDFium's loose box spans the
 * advance times the matrix's `a`; for text turned a quarter (where `a` is about 0) the tight glyph
 * box, projected on the direction, stands in.
 */
function advanceOf(
  pdfium: Pdfium,
  tp: number,
  i: number,
  info: ObjectInfo,
  lx: number,
  va: number,
  vb: number,
  vc: number,
  vd: number,
  ve: number,
  vf: number,
): number {
  const { x, scratch } = pdfium;
  if (Math.abs(info.a) >= 0.2 * info.scaleX) {
    if (!x.FPDFText_GetLooseCharBox(tp, i, scratch)) return 0;
    const f = pdfium.f32();
    const o = scratch >> 2;
    return (Math.abs(f[o + 2]! - f[o]!) / Math.abs(info.a)) * info.scaleX;
  }
  if (!x.FPDFText_GetCharBox(tp, i, scratch, scratch + 8, scratch + 16, scratch + 24)) return 0;
  const f = pdfium.f64();
  const o = scratch >> 3;
  const left = f[o]!;
  const right = f[o + 1]!;
  const bottom = f[o + 2]!;
  const top = f[o + 3]!;
  let far = lx;
  for (const [px, py] of [
    [left, bottom],
    [left, top],
    [right, bottom],
    [right, top],
  ] as const) {
    const cx = toLocal(va * px + vc * py + ve, vb * px + vd * py + vf, info.dir)[0];
    if (cx > far) far = cx;
  }
  return far - lx;
}

/** Whether a code point is white space (pdf.js's test for the glyphs it does not keep). */
function isWhitespace(u: number): boolean {
  return u === 0x20 || u === 0x09 || u === 0xa0 || (u >= 0x2000 && u <= 0x200a) || u === 0x3000 || u === 0x202f || u === 0x205f;
}

/** Whether a code point from U+0080 up is white space to `String.prototype.trim` and `\s` but not to {@link isWhitespace}. */
function isOddSpace(u: number): boolean {
  return u === 0x1680 || u === 0x2028 || u === 0x2029 || u === 0xfeff;
}

/** Snaps an angle (radians, display frame) to 0, 90, 180 or 270 degrees. */
function quantizeDirection(angle: number): number {
  const deg = (angle * 180) / Math.PI;
  return (((Math.round(deg / 90) * 90) % 360) + 360) % 360;
}
