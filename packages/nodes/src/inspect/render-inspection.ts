/**
 * `renderInspection`: one self-contained HTML page that shows what was extracted from a document.
 * Pages are pictured with each element's box drawn on them (coloured by type, numbered in reading
 * order); a side list gives every element in order, tables rendered; clicking shows an element's
 * type, text and metadata. Elements without coordinates (DOCX, HTML, e-mail, ...) are shown as an
 * outline of their `parent_id` hierarchy.
 */
import escapeHtml from 'escape-html';
import type { Element, ElementMetadata } from '@quarry/core';
import { INSPECTION_CSS, INSPECTION_SCRIPT } from './inspection-assets.js';
import type { PageImage } from './page-images.js';
import { htmlReportPage, scriptJson } from './report-page.js';
import { elementTypeColor } from './type-colors.js';

/** Options of {@link renderInspection}. */
export interface InspectionOptions {
  /** The document's name, shown as the title and in error messages (default `document`). */
  filename?: string;
  /** A line under the title, e.g. the strategy used. */
  caption?: string;
  /**
   * Pictures at most this many pages, from the first (default 20): a picture costs 100 to 200 KB.
   * The report says when pages were left out; their elements stay in the list.
   */
  maxPages?: number;
  /** Resolution of pictured PDF pages (default 96 dpi). */
  dpi?: number;
  /** Told why pages have no picture (also noted in the report); the report is written either way. */
  onWarning?: (message: string) => void;
}

/** Default of {@link InspectionOptions.maxPages}. */
export const INSPECTION_MAX_PAGES = 20;
const DEFAULT_DPI = 96;
const MAX_SIDE = 1600;
const JPEG_QUALITY = 75;
// Nesting deeper than this is drawn at this depth (and a parent_id cycle stops here).
const MAX_OUTLINE_DEPTH = 12;

/** An element's box on its page, in fractions of the page. */
interface Box {
  page: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A page of the report: a picture, or a blank sheet of the size the coordinates give. */
interface Sheet {
  page: number;
  aspect: number;
  image?: PageImage;
}

function boxOf(metadata: ElementMetadata): Box | undefined {
  const c = metadata.coordinates;
  if (!c || !Array.isArray(c.points) || !c.points.length || !(c.layout_width > 0) || !(c.layout_height > 0)) return undefined;
  const xs = c.points.map((p) => p[0]);
  const ys = c.points.map((p) => p[1]);
  if (![...xs, ...ys].every(Number.isFinite)) return undefined;
  const clamp = (v: number): number => Math.min(1, Math.max(0, v));
  const x0 = clamp(Math.min(...xs) / c.layout_width);
  const x1 = clamp(Math.max(...xs) / c.layout_width);
  const y0 = clamp(Math.min(...ys) / c.layout_height);
  const y1 = clamp(Math.max(...ys) / c.layout_height);
  return { page: metadata.page_number ?? 1, left: x0, top: y0, width: x1 - x0, height: y1 - y0 };
}

/** Depth of each element in its `parent_id` chain. */
function outlineDepths(elements: readonly Element[]): number[] {
  const byId = new Map(elements.map((e) => [e.element_id, e]));
  const memo = new Map<string, number>();
  const depth = (e: Element, guard: number): number => {
    const known = memo.get(e.element_id);
    if (known !== undefined) return known;
    const parent = e.metadata.parent_id ? byId.get(e.metadata.parent_id) : undefined;
    const d = parent && parent !== e && guard < MAX_OUTLINE_DEPTH ? depth(parent, guard + 1) + 1 : 0;
    memo.set(e.element_id, d);
    return d;
  };
  return elements.map((e) => Math.min(depth(e, 0), MAX_OUTLINE_DEPTH));
}

/** Metadata as the details pane shows it: inline images and source elements summarised. */
function shownMetadata(metadata: ElementMetadata): ElementMetadata {
  const out: ElementMetadata = { ...metadata };
  if (typeof out.image_base64 === 'string') out.image_base64 = `(${out.image_base64.length} base64 characters)`;
  if (out.orig_elements !== undefined) {
    out.orig_elements = Array.isArray(out.orig_elements) ? `(${out.orig_elements.length} elements)` : '(compressed elements)';
  }
  return out;
}

const pct = (x: number): string => `${(x * 100).toFixed(3)}%`;
const style = (color: string): string => `--c:${color}`;

function snippet(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function renderSheet(sheet: Sheet, boxes: string[]): string {
  const picture = sheet.image ? `<img src="${sheet.image.dataUrl}" alt="page ${sheet.page}" width="${sheet.image.width}" height="${sheet.image.height}">` : '';
  return [
    `<section class="page" id="page-${sheet.page}" data-page="${sheet.page}">`,
    `<h2>Page ${sheet.page}${sheet.image ? '' : ' (no picture)'}</h2>`,
    `<div class="sheet" style="aspect-ratio:${sheet.aspect.toFixed(5)}">${picture}${boxes.join('')}</div>`,
    '</section>',
  ].join('');
}

/**
 * Renders the inspection report of a document's elements as one HTML string that works offline
 * (page pictures inlined as JPEG, or PNG without sharp; no network): serve it or write it to a file.
 *
 * `documentBytes` (a PDF or an image file) gives the page pictures; without them, or for formats
 * without pages, elements with coordinates are drawn on blank pages and the others listed as an
 * outline. Element text is untrusted: it is escaped, table HTML is rebuilt from its table tags
 * alone, and the page's Content Security Policy runs no script but its own.
 *
 * @throws FILE_UNREADABLE, PDF_PASSWORD_REQUIRED or FILE_TOO_LARGE when the document's pages
 * cannot be pictured.
 *
 * @example
 * ```ts
 * const bytes = await readFile('paper.pdf');
 * const elements = await partitionFile(bytes, { filename: 'paper.pdf', strategy: 'fast', coordinates: true });
 * await writeFile('paper.html', await renderInspection(elements, bytes, { filename: 'paper.pdf' }));
 * ```
 */
export async function renderInspection(elements: readonly Element[], documentBytes?: Uint8Array, options: InspectionOptions = {}): Promise<string> {
  const filename = options.filename ?? 'document';
  // htmlparser2 loads with the first inspection, not with @quarry/nodes.
  const { safeTableHtml } = await import('./table-markup.js');
  const maxPages = Math.max(1, Math.floor(options.maxPages ?? INSPECTION_MAX_PAGES));
  const boxes = elements.map((e) => boxOf(e.metadata));
  const withBoxes = boxes.filter((b) => b !== undefined).length;

  const sheets = new Map<number, Sheet>();
  const pictureWarnings: string[] = [];
  let totalPages = 0;
  if (withBoxes && documentBytes?.length) {
    // PDFium, pngjs and sharp load only when there are pages to picture.
    const { renderPageImages } = await import('./page-images.js');
    const pictures = await renderPageImages(documentBytes, filename, {
      maxPages,
      dpi: options.dpi ?? DEFAULT_DPI,
      maxSide: MAX_SIDE,
      quality: JPEG_QUALITY,
    });
    totalPages = pictures.totalPages;
    pictureWarnings.push(...pictures.warnings);
    for (const image of pictures.images) sheets.set(image.page, { page: image.page, aspect: image.width / image.height, image });
  }
  elements.forEach((e, i) => {
    const box = boxes[i];
    const c = e.metadata.coordinates;
    if (!box || !c || sheets.has(box.page) || box.page > maxPages) return;
    sheets.set(box.page, { page: box.page, aspect: c.layout_width / c.layout_height });
  });

  const boxesByPage = new Map<number, string[]>();
  let drawn = 0;
  elements.forEach((e, i) => {
    const box = boxes[i];
    if (!box || !sheets.has(box.page)) return;
    drawn++;
    const label = `${i + 1} ${e.type}: ${snippet(e.text, 160)}`;
    const html =
      `<div class="box" data-i="${i}" data-type="${escapeHtml(e.type)}" title="${escapeHtml(label)}" ` +
      `style="${style(elementTypeColor(e.type))};left:${pct(box.left)};top:${pct(box.top)};width:${pct(box.width)};height:${pct(box.height)}">` +
      `<span class="num">${i + 1}</span></div>`;
    const list = boxesByPage.get(box.page) ?? [];
    list.push(html);
    boxesByPage.set(box.page, list);
  });

  const depths = outlineDepths(elements);
  const items = elements.map((e, i) => {
    const table =
      e.type === 'Table' && typeof e.metadata.text_as_html === 'string' ? `<div class="table-view">${safeTableHtml(e.metadata.text_as_html)}</div>` : '';
    const text = table ? snippet(e.text, 200) : snippet(e.text, 600);
    const noBox = boxes[i] && !sheets.has(boxes[i]!.page) ? '<span class="nobox">(page not pictured)</span>' : '';
    return (
      `<li data-i="${i}" style="${style(elementTypeColor(e.type))};margin-left:${depths[i]! * 14}px">` +
      `<span class="n">${i + 1}</span><span class="badge">${escapeHtml(e.type)}</span>${noBox}` +
      `<span class="text">${escapeHtml(text)}</span>${table}</li>`
    );
  });

  const typeCounts = new Map<string, number>();
  for (const e of elements) typeCounts.set(e.type, (typeCounts.get(e.type) ?? 0) + 1);
  const legend = [...typeCounts]
    .map(
      ([type, n]) =>
        `<li data-type="${escapeHtml(type)}"><span class="swatch" style="${style(elementTypeColor(type))}"></span>${escapeHtml(type)} <span class="count">(${n})</span></li>`,
    )
    .join('');

  const pages = [...sheets.values()].sort((a, b) => a.page - b.page);
  const notes: string[] = [];
  if (totalPages > maxPages) notes.push(`Showing the first ${maxPages} of ${totalPages} pages; the elements of later pages are listed but not drawn.`);
  else if (drawn < withBoxes) notes.push(`${withBoxes - drawn} elements are on pages after page ${maxPages} and are listed but not drawn.`);
  if (!withBoxes) notes.push('The elements have no coordinates: they are shown as an outline of their parent_id hierarchy.');
  for (const w of pictureWarnings) {
    notes.push(`Not pictured: ${w}.`);
    options.onWarning?.(w);
  }
  const facts = [
    `${elements.length} elements`,
    `${withBoxes} with coordinates`,
    pages.length ? `${pages.length} page${pages.length === 1 ? '' : 's'} shown` : '',
  ].filter(Boolean);

  const data = elements.map((e, i) => ({
    type: e.type,
    element_id: e.element_id,
    text: e.text,
    page: boxes[i]?.page ?? e.metadata.page_number,
    metadata: shownMetadata(e.metadata),
  }));
  const side = [
    `<ol class="list">${items.join('')}</ol>`,
    '<section class="details" id="details"><h3 class="d-title">Details</h3><p class="d-text">Click a box or an entry of the list to see its type, text and metadata.</p><pre class="d-meta"></pre></section>',
  ];
  const body = [
    '<header>',
    `<h1>${escapeHtml(filename)}</h1>`,
    `<div class="facts">${escapeHtml([options.caption, ...facts].filter(Boolean).join(' · '))}</div>`,
    ...notes.map((n) => `<div class="note">${escapeHtml(n)}</div>`),
    `<ul class="legend">${legend}</ul>`,
    '</header>',
    pages.length
      ? `<main><div class="pages">${pages.map((s) => renderSheet(s, boxesByPage.get(s.page) ?? [])).join('')}</div><div class="side">${side.join('')}</div></main>`
      : `<main class="outline"><div class="list-column">${side[0]}</div><div class="side">${side[1]}</div></main>`,
    `<script type="application/json" id="quarry-elements">${scriptJson(data)}</script>`,
  ].join('\n');
  return htmlReportPage({ title: `${filename}: what quarry extracted`, css: INSPECTION_CSS, body, script: INSPECTION_SCRIPT });
}
