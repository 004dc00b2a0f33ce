import type { Element, ElementLink, ElementMetadata, ElementType } from '@quarry/core';
import type { FormatPartitionOptions, FormatPartitioner } from '../types.js';
import { bodyParagraphType, cleanBullets, isBulletedText } from '../text-classify.js';
import { newElement } from './shared/new-element.js';
import { mainPartPath, OoxmlPackage, type OoxmlRelationship } from './shared/ooxml-package.js';
import { collapseKeyedMatrix, htmlifySpannedMatrix, normalizeSpace } from './shared/table-html.js';
import { attr, childElements, findAll, firstChild, hasDescendant, isOn, path, type XmlNode } from './shared/xml-tree.js';

/** Paragraph styles that decide the element type (`unstructured`'s `STYLE_TO_ELEMENT_MAPPING`). */
const STYLE_TO_TYPE: Readonly<Record<string, ElementType>> = {
  Caption: 'UncategorizedText',
  'Intense Quote': 'UncategorizedText',
  List: 'ListItem',
  'List 2': 'ListItem',
  'List 3': 'ListItem',
  'List Bullet': 'ListItem',
  'List Bullet 2': 'ListItem',
  'List Bullet 3': 'ListItem',
  'List Continue': 'ListItem',
  'List Continue 2': 'ListItem',
  'List Continue 3': 'ListItem',
  'List Number': 'ListItem',
  'List Number 2': 'ListItem',
  'List Number 3': 'ListItem',
  'List Paragraph': 'ListItem',
  'Macro Text': 'UncategorizedText',
  'No Spacing': 'UncategorizedText',
  Quote: 'UncategorizedText',
  Subtitle: 'Title',
  TOCHeading: 'Title',
  Title: 'Title',
  ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`Heading ${i + 1}`, 'Title' as const])),
};

/** Containers whose children are read as if they were inline in the paragraph or body. */
const TRANSPARENT = new Set(['ins', 'smartTag', 'customXml', 'fldSimple', 'dir', 'bdo', 'sdtContent']);

/** A piece of paragraph content: a run (possibly cut at a page break) or a hyperlink. */
type Inline = { kind: 'run'; run: XmlNode; children: Array<XmlNode | string> } | { kind: 'link'; node: XmlNode };

/** Everything read once per document. */
interface DocxContext {
  pkg: OoxmlPackage;
  options: FormatPartitionOptions;
  rels: Map<string, OoxmlRelationship>;
  /** Paragraph style id -> UI style name. */
  styleNames: Map<string, string>;
  defaultStyle: string;
  evenAndOddHeaders: boolean;
  /** How pages are counted: rendered page breaks (Word writes them), hard breaks, or none. */
  pageBreaks: 'rendered' | 'hard' | 'none';
  page: number;
  out: Element[];
}

/**
 * DOCX, mapped as `unstructured`'s python-docx partitioner does: per section a `Header` for each
 * header in force (`header_footer_type` primary / first_page / even_page), then the body in order
 * (paragraphs and tables), then the footers. Paragraph type comes from numbering (`ListItem`, bullet
 * stripped, `category_depth` from the level), then the paragraph style (Heading N, Title, Subtitle ->
 * `Title`; List styles -> `ListItem`), then the text (address, e-mail, narrative), else
 * `UncategorizedText`. Tables give one `Table` with `text_as_html` (merged cells as spans).
 * Bold/italic runs fill `emphasized_text_contents`/`_tags`; external hyperlinks fill `links`,
 * `link_texts`, `link_urls`. `page_number` is written only when the file records page breaks
 * (Word's rendered breaks, else hard breaks). Differences from `unstructured`, kept on purpose:
 * text inside content controls, tracked insertions and text boxes is included; a table without any
 * text is dropped.
 */
export const docxPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const pkg = await OoxmlPackage.open(bytes, options.filename, 'DOCX', { logger: options.logger });
    const mainPath = (await mainPartPath(pkg)) ?? 'word/document.xml';
    const doc = await pkg.requireXml(mainPath);
    const body = firstChild(doc, 'body');
    if (!body) throw pkg.unreadable(`${mainPath} has no body`);
    const rels = await pkg.relationships(mainPath);
    const ctx: DocxContext = {
      pkg,
      options,
      rels,
      ...(await readStyles(pkg, rels)),
      evenAndOddHeaders: await readEvenAndOdd(pkg, rels),
      pageBreaks: hasDescendant(body, 'lastRenderedPageBreak') ? 'rendered' : hasHardPageBreak(body) ? 'hard' : 'none',
      page: 1,
      out: [],
    };
    const sections = splitSections(body);
    if (sections.length === 0) {
      for (const block of blockItems(body)) emitBlock(ctx, block);
      return ctx.out;
    }
    for (const [index, section] of sections.entries()) {
      options.signal.throwIfAborted();
      emitSectionStartBreak(ctx, index, section.sectPr);
      await emitHeadersFooters(ctx, section.sectPr, 'header');
      for (const block of section.blocks) emitBlock(ctx, block);
      await emitHeadersFooters(ctx, section.sectPr, 'footer');
    }
    return ctx.out;
  },
};

async function readStyles(pkg: OoxmlPackage, rels: Map<string, OoxmlRelationship>): Promise<{ styleNames: Map<string, string>; defaultStyle: string }> {
  const styleNames = new Map<string, string>();
  let defaultStyle = 'Normal';
  const rel = [...rels.values()].find((r) => r.type === 'styles' && !r.external);
  const tree = rel ? await pkg.xml(rel.target) : undefined;
  if (!tree) return { styleNames, defaultStyle };
  for (const style of childElements(tree, 'style')) {
    if (attr(style, 'type') !== 'paragraph') continue;
    const id = attr(style, 'styleId');
    const name = uiStyleName(attr(firstChild(style, 'name'), 'val') ?? id ?? '');
    if (id) styleNames.set(id, name);
    if (isOn(attr(style, 'default'), attr(style, 'default') !== undefined)) defaultStyle = name;
  }
  return { styleNames, defaultStyle };
}

/** Word stores a few built-in style names in lower case; python-docx shows their UI names. */
function uiStyleName(name: string): string {
  return /^(caption|footer|header|heading [1-9])$/i.test(name) ? name[0]!.toUpperCase() + name.slice(1).toLowerCase() : name;
}

async function readEvenAndOdd(pkg: OoxmlPackage, rels: Map<string, OoxmlRelationship>): Promise<boolean> {
  const rel = [...rels.values()].find((r) => r.type === 'settings' && !r.external);
  const tree = rel ? await pkg.xml(rel.target) : undefined;
  const el = tree ? firstChild(tree, 'evenAndOddHeaders') : undefined;
  return isOn(attr(el, 'val'), el !== undefined);
}

function hasHardPageBreak(body: XmlNode): boolean {
  return findAll(body, 'br').some((br) => attr(br, 'type') === 'page');
}

/**
 * The body's block items (paragraphs and tables), looking through content controls. A control's
 * properties hold no paragraphs, so all its children are searched, not only `sdtContent`: nesting
 * past the depth limit folds some `sdtContent` elements away (see `parseXmlTree`).
 */
function blockItems(container: XmlNode, out: XmlNode[] = []): XmlNode[] {
  for (const c of childElements(container)) {
    if (c.name === 'p' || c.name === 'tbl') out.push(c);
    else if (c.name === 'sdt' || c.name === 'sdtContent' || c.name === 'customXml') blockItems(c, out);
  }
  return out;
}

/**
 * Sections in order. A `w:sectPr` in a paragraph's properties ends a section after that paragraph;
 * the body's own `w:sectPr` ends the last one.
 */
function splitSections(body: XmlNode): Array<{ sectPr: XmlNode; blocks: XmlNode[] }> {
  const sections: Array<{ sectPr: XmlNode; blocks: XmlNode[] }> = [];
  let blocks: XmlNode[] = [];
  for (const block of blockItems(body)) {
    blocks.push(block);
    const sectPr = block.name === 'p' ? path(block, 'pPr', 'sectPr') : undefined;
    if (sectPr) {
      sections.push({ sectPr, blocks });
      blocks = [];
    }
  }
  const last = firstChild(body, 'sectPr');
  if (last) sections.push({ sectPr: last, blocks });
  else if (sections.length > 0 && blocks.length > 0) sections[sections.length - 1]!.blocks.push(...blocks);
  return sections;
}

function pageNumber(ctx: DocxContext): number | undefined {
  return ctx.pageBreaks === 'none' ? undefined : ctx.page;
}

function nextPage(ctx: DocxContext): void {
  ctx.page++;
  if (ctx.options.include_page_breaks) ctx.out.push(newElement('PageBreak', ''));
}

/** Odd/even-page section starts can skip a page that no break in the text records. */
function emitSectionStartBreak(ctx: DocxContext, index: number, sectPr: XmlNode): void {
  const start = attr(firstChild(sectPr, 'type'), 'val') ?? 'nextPage';
  const odd = ctx.page % 2 === 1;
  if (start === 'evenPage' && !odd) nextPage(ctx);
  else if (start === 'oddPage' && index > 0 && odd) nextPage(ctx);
}

async function emitHeadersFooters(ctx: DocxContext, sectPr: XmlNode, kind: 'header' | 'footer'): Promise<void> {
  const refs = childElements(sectPr, `${kind}Reference`);
  const wanted: Array<[string, string]> = [['default', 'primary']];
  if (firstChild(sectPr, 'titlePg') && isOn(attr(firstChild(sectPr, 'titlePg'), 'val'), true)) wanted.push(['first', 'first_page']);
  if (ctx.evenAndOddHeaders) wanted.push(['even', 'even_page']);
  for (const [type, headerFooterType] of wanted) {
    // No reference of this type means "linked to previous": nothing new to emit.
    const ref = refs.find((r) => (attr(r, 'type') ?? 'default') === type);
    const rel = ref ? ctx.rels.get(attr(ref, 'id', R_NS) ?? attr(ref, 'id') ?? '') : undefined;
    if (!rel || rel.external) continue;
    const part = await ctx.pkg.xml(rel.target);
    if (!part) continue;
    const texts: string[] = [];
    for (const block of blockItems(part)) {
      const t = block.name === 'p' ? paragraphText(inlineItems(block)).trim() : tableTexts(block).join(' ');
      if (t) texts.push(t);
    }
    const text = texts.join('\n');
    if (!text) continue;
    ctx.out.push(newElement(kind === 'header' ? 'Header' : 'Footer', text, { header_footer_type: headerFooterType, category_depth: 0 }));
  }
}

const R_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function emitBlock(ctx: DocxContext, block: XmlNode): void {
  if (block.name === 'tbl') emitTable(ctx, block);
  else emitParagraph(ctx, block);
}

/** The paragraph's inline content in order: runs (through transparent containers) and hyperlinks. */
function inlineItems(p: XmlNode): Inline[] {
  const out: Inline[] = [];
  const walk = (node: XmlNode): void => {
    for (const c of childElements(node)) {
      if (c.name === 'r') out.push({ kind: 'run', run: c, children: c.children });
      else if (c.name === 'hyperlink') out.push({ kind: 'link', node: c });
      else if (c.name === 'sdt' || c.name === 'sdtContent' || TRANSPARENT.has(c.name)) walk(c);
    }
  };
  walk(p);
  return out;
}

/** Splits inline content at page breaks into fragments (a break inside a hyperlink stays before it). */
function splitAtPageBreaks(items: Inline[], mode: DocxContext['pageBreaks']): Inline[][] {
  const isBreak = (n: XmlNode | string): boolean =>
    typeof n !== 'string' && (mode === 'rendered' ? n.name === 'lastRenderedPageBreak' : mode === 'hard' && n.name === 'br' && attr(n, 'type') === 'page');
  const fragments: Inline[][] = [[]];
  for (const item of items) {
    if (item.kind === 'link') {
      fragments[fragments.length - 1]!.push(item);
      if (mode !== 'none' && childElements(item.node, 'r').some((r) => r.children.some(isBreak))) {
        fragments.push([]);
      }
      continue;
    }
    let current: Array<XmlNode | string> = [];
    for (const child of item.children) {
      if (mode !== 'none' && isBreak(child)) {
        if (current.length) fragments[fragments.length - 1]!.push({ kind: 'run', run: item.run, children: current });
        current = [];
        fragments.push([]);
      } else current.push(child);
    }
    if (current.length) fragments[fragments.length - 1]!.push({ kind: 'run', run: item.run, children: current });
  }
  return fragments;
}

/** python-docx's run text: `w:t`, tabs, line breaks, non-breaking hyphens. */
function runText(children: Array<XmlNode | string>): string {
  let s = '';
  for (const c of children) {
    if (typeof c === 'string') continue;
    switch (c.name) {
      case 't':
        s += c.children.filter((x): x is string => typeof x === 'string').join('');
        break;
      case 'tab':
      case 'ptab':
        s += '\t';
        break;
      case 'br':
        if ((attr(c, 'type') ?? 'textWrapping') === 'textWrapping') s += '\n';
        break;
      case 'cr':
        s += '\n';
        break;
      case 'noBreakHyphen':
        s += '-';
        break;
      case 'drawing':
      case 'AlternateContent':
        s += textBoxText(c);
        break;
    }
  }
  return s;
}

/** Text of text boxes in a drawing; only the DrawingML choice of an `mc:AlternateContent`. */
function textBoxText(node: XmlNode): string {
  const source = node.name === 'AlternateContent' ? firstChild(node, 'Choice') : node;
  if (!source) return '';
  return findAll(source, 'txbxContent')
    .flatMap((box) =>
      blockItems(box)
        .filter((b) => b.name === 'p')
        .map((p) => paragraphText(inlineItems(p))),
    )
    .filter((t) => t.trim())
    .join('\n');
}

function paragraphText(items: Inline[]): string {
  let s = '';
  for (const item of items) {
    if (item.kind === 'run') s += runText(item.children);
    else s += linkText(item.node);
  }
  return s;
}

function linkText(link: XmlNode): string {
  return inlineItems(link)
    .map((i) => (i.kind === 'run' ? runText(i.children) : linkText(i.node)))
    .join('');
}

function emphasis(items: Inline[]): { contents: string[]; tags: string[] } {
  const contents: string[] = [];
  const tags: string[] = [];
  for (const item of items) {
    if (item.kind !== 'run') continue;
    const text = runText(item.children).trim();
    if (!text) continue;
    const rPr = firstChild(item.run, 'rPr');
    const b = firstChild(rPr, 'b');
    const i = firstChild(rPr, 'i');
    if (isOn(attr(b, 'val'), b !== undefined)) {
      contents.push(text);
      tags.push('b');
    }
    if (isOn(attr(i, 'val'), i !== undefined)) {
      contents.push(text);
      tags.push('i');
    }
  }
  return { contents, tags };
}

function links(ctx: DocxContext, items: Inline[]): ElementLink[] {
  const out: ElementLink[] = [];
  let offset = 0;
  for (const item of items) {
    if (item.kind === 'run') {
      offset += runText(item.children).length;
      continue;
    }
    const text = linkText(item.node);
    const start = offset;
    offset += text.length;
    const rel = ctx.rels.get(attr(item.node, 'id', R_NS) ?? '');
    // Internal jumps (a table of contents entry, say) have an anchor but no address: plain text.
    if (!rel?.external || !text) continue;
    const anchor = attr(item.node, 'anchor');
    out.push({ text, url: anchor ? `${rel.target}#${anchor}` : rel.target, start_index: start });
  }
  return out;
}

function styleName(ctx: DocxContext, p: XmlNode): string {
  const id = attr(path(p, 'pPr', 'pStyle'), 'val');
  return (id && ctx.styleNames.get(id)) || ctx.defaultStyle;
}

function categoryDepth(p: XmlNode, style: string): number {
  const ilvl = attr(path(p, 'pPr', 'numPr', 'ilvl'), 'val');
  if (ilvl !== undefined && Number.isFinite(Number(ilvl))) return Math.round(Number(ilvl));
  const trailingNumber = (): number => {
    const last = style.split(/\s+/).pop() ?? '';
    return /^\d+$/.test(last) ? Number(last) - 1 : 0;
  };
  if (style.startsWith('Heading')) return Math.max(0, trailingNumber());
  if (style === 'Subtitle') return 1;
  if (style.startsWith('List')) return Math.max(0, trailingNumber());
  return 0;
}

function isNumbered(p: XmlNode): boolean {
  const numPr = path(p, 'pPr', 'numPr');
  // numId 0 explicitly removes numbering inherited from the style.
  return numPr !== undefined && attr(firstChild(numPr, 'numId'), 'val') !== '0';
}

function emitParagraph(ctx: DocxContext, p: XmlNode): void {
  const style = styleName(ctx, p);
  splitAtPageBreaks(inlineItems(p), ctx.pageBreaks).forEach((items, i) => {
    if (i > 0) nextPage(ctx);
    emitParagraphFragment(ctx, p, items, style);
  });
}

function emitParagraphFragment(ctx: DocxContext, p: XmlNode, items: Inline[], style: string): void {
  const text = paragraphText(items);
  if (!text.trim()) return;
  const em = emphasis(items);
  const ls = links(ctx, items);
  const metadata: ElementMetadata = { category_depth: categoryDepth(p, style) };
  if (em.contents.length) {
    metadata.emphasized_text_contents = em.contents;
    metadata.emphasized_text_tags = em.tags;
  }
  if (ls.length) {
    metadata.link_texts = ls.map((l) => l.text);
    metadata.link_urls = ls.map((l) => l.url);
    metadata.links = ls;
  }
  const page = pageNumber(ctx);
  if (page !== undefined) metadata.page_number = page;

  if (isBulletedText(text) || isNumbered(p)) {
    const clean = cleanBullets(text).trim();
    if (clean) ctx.out.push(newElement('ListItem', clean, metadata));
    return;
  }
  const byStyle = STYLE_TO_TYPE[style];
  if (byStyle) {
    ctx.out.push(newElement(byStyle, text, metadata));
    return;
  }
  ctx.out.push(newElement(bodyParagraphType(text), text, metadata));
}

function isVMergeContinue(tc: XmlNode): boolean {
  const vMerge = path(tc, 'tcPr', 'vMerge');
  return vMerge !== undefined && (attr(vMerge, 'val') ?? 'continue') === 'continue';
}

/** Every non-empty stripped paragraph text of a table, nested tables depth-first, merged cells once. */
function tableTexts(tbl: XmlNode): string[] {
  const out: string[] = [];
  for (const tr of childElements(tbl, 'tr')) {
    for (const tc of childElements(tr, 'tc')) {
      if (isVMergeContinue(tc)) continue;
      for (const block of blockItems(tc)) {
        if (block.name === 'p') {
          const t = paragraphText(inlineItems(block)).trim();
          if (t) out.push(t);
        } else out.push(...tableTexts(block));
      }
    }
  }
  return out;
}

/** A cell's text for the HTML grid: paragraphs and nested tables' cells, whitespace-normalized. */
function cellText(tc: XmlNode): string {
  const parts: string[] = [];
  for (const block of blockItems(tc)) {
    if (block.name === 'p') parts.push(paragraphText(inlineItems(block)));
    else for (const tr of childElements(block, 'tr')) for (const inner of childElements(tr, 'tc')) parts.push(cellText(inner));
  }
  return normalizeSpace(parts.join(' '));
}

/** The table as a full grid of `[text, mergeKey]`: spans repeat the cell, vertical merges the cell above. */
function tableGrid(tbl: XmlNode): Array<Array<[string, unknown]>> {
  const grid: Array<Array<[string, unknown]>> = [];
  let unique = 0;
  for (const tr of childElements(tbl, 'tr')) {
    const row: Array<[string, unknown]> = [];
    const trPr = firstChild(tr, 'trPr');
    const before = Number(attr(firstChild(trPr, 'gridBefore'), 'val') ?? 0);
    const after = Number(attr(firstChild(trPr, 'gridAfter'), 'val') ?? 0);
    for (let i = 0; i < before; i++) row.push(['', `empty-${unique++}`]);
    for (const tc of childElements(tr, 'tc')) {
      const span = Math.max(1, Number(attr(path(tc, 'tcPr', 'gridSpan'), 'val') ?? 1) || 1);
      const col = row.length;
      const above = grid[grid.length - 1]?.[col];
      const cell: [string, unknown] = isVMergeContinue(tc) && above ? above : [cellText(tc), tc];
      for (let i = 0; i < span; i++) row.push(cell);
    }
    for (let i = 0; i < after; i++) row.push(['', `empty-${unique++}`]);
    grid.push(row);
  }
  return grid;
}

function emitTable(ctx: DocxContext, tbl: XmlNode): void {
  const text = tableTexts(tbl).join(' ');
  if (!text) return;
  const metadata: ElementMetadata = { text_as_html: htmlifySpannedMatrix(collapseKeyedMatrix(tableGrid(tbl))) };
  const contents: string[] = [];
  const tags: string[] = [];
  for (const tr of childElements(tbl, 'tr')) {
    for (const tc of childElements(tr, 'tc')) {
      for (const p of blockItems(tc).filter((b) => b.name === 'p')) {
        const em = emphasis(inlineItems(p));
        contents.push(...em.contents);
        tags.push(...em.tags);
      }
    }
  }
  if (contents.length) {
    metadata.emphasized_text_contents = contents;
    metadata.emphasized_text_tags = tags;
  }
  const page = pageNumber(ctx);
  if (page !== undefined) metadata.page_number = page;
  ctx.out.push(newElement('Table', text, metadata));
}
