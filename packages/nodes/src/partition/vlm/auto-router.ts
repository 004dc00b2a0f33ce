/**
 * Page routing of the Auto and VLM partitioners: which of Fast, High Res or VLM reads each PDF
 * page, decided from the page's text layer, pictures and tables. The rules, in order:
 *
 * 1. **No usable text layer** (fewer than {@link MIN_TEXT_CHARS} letters and digits, or more than
 *    {@link MAX_BAD_GLYPH_SHARE} of its characters broken glyphs: U+FFFD, controls, private use) ->
 *    `vlm`. A scan or a font without a usable encoding: the text is only in the pixels, and a
 *    vision model reads structure (tables, headings) from pixels better than OCR does.
 * 2. **A picture dominates the page** (embedded images cover at least {@link PICTURE_PAGE_SHARE}
 *    of it) -> `vlm`: a scan carrying an OCR text layer, or a figure-heavy page whose layout is in
 *    the image.
 * 3. **Pictures or tables** (any embedded image, or a table found in the text geometry) -> `hi_res`,
 *    which reads the text layer and adds Image and Table elements.
 * 4. **Plain text** -> `fast` when `allow_fast`, else `hi_res`.
 *
 * The VLM partitioner (`is_dynamic: false`) uses only rule 4's `fast` (when `allow_fast`) and sends
 * every other page to the vision model.
 *
 * `routing_score` is the confidence of the decision in [0.5, 1]: how far the deciding measure is
 * past its threshold.
 */
import type { Box, PageText } from '../formats/pdf/layout-types.js';

/** A route: the partitioning strategy that reads a page. */
export type PageRoute = 'fast' | 'hi_res' | 'vlm';

/** Below this many letters and digits a page has no usable text layer (the hi_res OCR threshold). */
export const MIN_TEXT_CHARS = 32;
/** Above this share of broken glyphs a text layer is garbage. */
export const MAX_BAD_GLYPH_SHARE = 0.3;
/** Images covering this share of a page make it a picture page. */
export const PICTURE_PAGE_SHARE = 0.5;
// A page of ordinary body text carries about 20-40 letters per square inch.
const BODY_TEXT_DENSITY = 20;

/** What the router measured on one page. */
export interface PageFeatures {
  pageNumber: number;
  /** Letters and digits of the text layer. */
  textChars: number;
  /** Broken glyphs of the text layer. */
  badChars: number;
  /** Page area in square inches. */
  areaSqIn: number;
  /** Share of the page covered by embedded images (overlaps counted once per image, capped at 1). */
  imageCover: number;
  imageCount: number;
  /** Tables found in the text geometry. */
  tableCount: number;
}

/** A routing decision. */
export interface RouteDecision {
  route: PageRoute;
  /** Confidence in [0.5, 1]. */
  score: number;
  /** Which rule decided, for logs. */
  reason: 'no_text_layer' | 'broken_text_layer' | 'picture_page' | 'images_or_tables' | 'plain_text';
}

/** How to route. */
export interface RouteOptions {
  /** true: Auto (Fast, High Res or VLM); false: the VLM partitioner (Fast or VLM). */
  dynamic: boolean;
  allowFast: boolean;
}

/** Measures a page from its text layer, its image boxes and the number of tables found. */
export function pageFeatures(
  pageNumber: number,
  text: Pick<PageText, 'width' | 'height' | 'textChars' | 'badChars'>,
  images: readonly Box[],
  tableCount: number,
): PageFeatures {
  const area = Math.max(1, text.width * text.height);
  const covered = images.reduce((n, b) => n + Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0), 0);
  return {
    pageNumber,
    textChars: text.textChars,
    badChars: text.badChars,
    areaSqIn: area / (72 * 72),
    imageCover: Math.min(1, covered / area),
    imageCount: images.length,
    tableCount,
  };
}

const clampScore = (x: number): number => Math.round(Math.min(1, Math.max(0.5, x)) * 1000) / 1000;

/** Routes one page by the rules of the module comment. */
export function routePage(f: PageFeatures, options: RouteOptions): RouteDecision {
  const total = f.textChars + f.badChars;
  const badShare = total > 0 ? f.badChars / total : 0;
  if (f.textChars < MIN_TEXT_CHARS) {
    return { route: 'vlm', score: clampScore(1 - f.textChars / (2 * MIN_TEXT_CHARS)), reason: 'no_text_layer' };
  }
  if (badShare > MAX_BAD_GLYPH_SHARE) {
    return { route: 'vlm', score: clampScore(0.5 + (badShare - MAX_BAD_GLYPH_SHARE) / (2 * (1 - MAX_BAD_GLYPH_SHARE))), reason: 'broken_text_layer' };
  }
  const density = f.textChars / Math.max(1e-6, f.areaSqIn);
  // How clearly the text layer is healthy: dense and clean.
  const textHealth = clampScore((0.5 + 0.5 * Math.min(1, density / BODY_TEXT_DENSITY)) * (1 - badShare));
  if (f.imageCover >= PICTURE_PAGE_SHARE) {
    return { route: 'vlm', score: clampScore(f.imageCover), reason: 'picture_page' };
  }
  if (f.imageCount > 0 || f.tableCount > 0) {
    if (!options.dynamic) return { route: 'vlm', score: clampScore(0.75 + 0.25 * Math.min(1, f.tableCount + f.imageCount)), reason: 'images_or_tables' };
    return { route: 'hi_res', score: clampScore(f.tableCount > 0 ? 0.9 : 0.75 + 0.5 * f.imageCover), reason: 'images_or_tables' };
  }
  if (options.allowFast) return { route: 'fast', score: textHealth, reason: 'plain_text' };
  return { route: options.dynamic ? 'hi_res' : 'vlm', score: textHealth, reason: 'plain_text' };
}
