import type { Element, ElementMetadata, ElementType } from '@quarry/core';
import type { FormatPartitioner } from '../types.js';
import { bodyParagraphType } from '../text-classify.js';
import { newElement } from './shared/new-element.js';
import { OoxmlPackage } from './shared/ooxml-package.js';
import { collapseKeyedMatrix, htmlifySpannedMatrix, matrixText, normalizeSpace } from './shared/table-html.js';
import { attr, childElements, firstChild, path, type XmlNode } from './shared/xml-tree.js';

/** Containers whose children are read as body content. */
const BODY_CONTAINERS = new Set([
  'section',
  'index-body',
  'table-of-content',
  'alphabetical-index',
  'illustration-index',
  'table-index',
  'bibliography',
  'user-index',
  'object-index',
  'change-region',
]);

/** Paragraph styles (display names) that make a paragraph a title, with its depth. */
const TITLE_STYLES: Readonly<Record<string, number>> = { Title: 0, Subtitle: 1 };

interface OdtContext {
  /** Automatic style name -> display name of the style it derives from. */
  parentStyles: Map<string, string>;
  out: Element[];
}

/**
 * ODT (OpenDocument text), partitioned like `unstructured` does after converting it to DOCX:
 * headings (`text:h`, and Title/Subtitle paragraph styles) become `Title` with `category_depth`
 * from the outline level, list items `ListItem` with their nesting depth, tables one `Table` with
 * `text_as_html` (spans kept), other paragraphs `NarrativeText`, `Address`, `EmailAddress` or
 * `UncategorizedText` by their text. Footnote bodies, headers and footers are not part of the
 * body and give nothing, as with `unstructured`'s conversion.
 */
export const odtPartitioner: FormatPartitioner = {
  async partition(bytes, options) {
    const pkg = await OoxmlPackage.open(bytes, options.filename, 'ODT', { logger: options.logger });
    const content = await pkg.requireXml('content.xml');
    const text = path(content, 'body', 'text');
    if (!text) throw pkg.unreadable('content.xml has no office:text body');
    const ctx: OdtContext = { parentStyles: automaticStyleParents(content), out: [] };
    walkBody(ctx, text, 0);
    return ctx.out;
  },
};

/** ODF encodes spaces in style names as `_20_`. */
function displayName(name: string): string {
  return name.replace(/_([0-9a-fA-F]{2})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function automaticStyleParents(content: XmlNode): Map<string, string> {
  const out = new Map<string, string>();
  for (const style of childElements(firstChild(content, 'automatic-styles') ?? content, 'style')) {
    const name = attr(style, 'name');
    const parent = attr(style, 'parent-style-name');
    if (name && parent) out.set(name, displayName(parent));
  }
  return out;
}

function styleOf(ctx: OdtContext, node: XmlNode): string {
  const name = attr(node, 'style-name') ?? '';
  return ctx.parentStyles.get(name) ?? displayName(name);
}

function walkBody(ctx: OdtContext, container: XmlNode, listDepth: number): void {
  for (const node of childElements(container)) {
    switch (node.name) {
      case 'h':
        emitText(ctx, node, 'Title', { category_depth: Math.max(0, Number(attr(node, 'outline-level') ?? 1) - 1) });
        break;
      case 'p': {
        const style = styleOf(ctx, node);
        if (style in TITLE_STYLES) emitText(ctx, node, 'Title', { category_depth: TITLE_STYLES[style]! });
        else emitText(ctx, node, undefined, { category_depth: 0 });
        break;
      }
      case 'list':
        walkList(ctx, node, listDepth);
        break;
      case 'table':
        emitTable(ctx, node);
        break;
      default:
        if (BODY_CONTAINERS.has(node.name)) walkBody(ctx, node, listDepth);
    }
  }
}

function walkList(ctx: OdtContext, list: XmlNode, depth: number): void {
  for (const item of childElements(list).filter((c) => c.name === 'list-item' || c.name === 'list-header')) {
    for (const node of childElements(item)) {
      if (node.name === 'p' || node.name === 'h') emitText(ctx, node, 'ListItem', { category_depth: depth });
      else if (node.name === 'list') walkList(ctx, node, depth + 1);
      else if (node.name === 'table') emitTable(ctx, node);
    }
  }
}

/** A paragraph's text: spans and links read through, `text:s`/`text:tab`/`text:line-break` expanded. */
function inlineText(node: XmlNode): string {
  let s = '';
  for (const c of node.children) {
    if (typeof c === 'string') {
      s += c;
      continue;
    }
    switch (c.name) {
      case 's':
        s += ' '.repeat(Math.max(1, Number(attr(c, 'c') ?? 1) || 1));
        break;
      case 'tab':
        s += '\t';
        break;
      case 'line-break':
        s += '\n';
        break;
      case 'note':
      case 'annotation':
      case 'tracked-changes':
        break;
      case 'frame':
      case 'text-box':
        // Text boxes anchored in a paragraph hold their own paragraphs.
        s += childElements(c)
          .map((x) => inlineText(x))
          .filter((t) => t.trim())
          .join('\n');
        break;
      default:
        s += inlineText(c);
    }
  }
  return s;
}

function links(node: XmlNode): { texts: string[]; urls: string[] } {
  const texts: string[] = [];
  const urls: string[] = [];
  const visit = (n: XmlNode): void => {
    for (const c of childElements(n)) {
      if (c.name === 'a') {
        const url = attr(c, 'href');
        const text = inlineText(c);
        if (url && !url.startsWith('#') && text) {
          texts.push(text);
          urls.push(url);
        }
      } else visit(c);
    }
  };
  visit(node);
  return { texts, urls };
}

function emitText(ctx: OdtContext, node: XmlNode, type: ElementType | undefined, metadata: ElementMetadata): void {
  const text = inlineText(node);
  if (!text.trim()) return;
  const ls = links(node);
  if (ls.urls.length) {
    metadata.link_texts = ls.texts;
    metadata.link_urls = ls.urls;
  }
  ctx.out.push(newElement(type ?? bodyParagraphType(text), type === 'ListItem' ? text.trim() : text, metadata));
}

function cellText(cell: XmlNode): string {
  const parts: string[] = [];
  const visit = (n: XmlNode): void => {
    for (const c of childElements(n)) {
      if (c.name === 'p' || c.name === 'h') parts.push(inlineText(c));
      else visit(c);
    }
  };
  visit(cell);
  return normalizeSpace(parts.join(' '));
}

function tableRows(table: XmlNode): XmlNode[] {
  const rows: XmlNode[] = [];
  for (const c of childElements(table)) {
    if (c.name === 'table-row') rows.push(c);
    else if (['table-header-rows', 'table-rows', 'table-row-group'].includes(c.name)) rows.push(...tableRows(c));
  }
  return rows;
}

/**
 * The table as a full grid of `[text, mergeKey]`. A spanning cell is followed in the file by
 * `table:covered-table-cell` placeholders; those take the key of the cell that covers them.
 */
function tableGrid(table: XmlNode): Array<Array<[string, unknown]>> {
  const grid: Array<Array<[string, unknown]>> = [];
  const covering = new Map<string, [string, unknown]>();
  tableRows(table).forEach((row, r) => {
    const out: Array<[string, unknown]> = [];
    for (const cell of childElements(row).filter((c) => c.name === 'table-cell' || c.name === 'covered-table-cell')) {
      const repeat = Math.min(1000, Math.max(1, Number(attr(cell, 'number-columns-repeated') ?? 1) || 1));
      for (let i = 0; i < repeat; i++) {
        const col = out.length;
        if (cell.name === 'covered-table-cell') {
          out.push(covering.get(`${r},${col}`) ?? ['', `covered-${r}-${col}`]);
          continue;
        }
        const entry: [string, unknown] = [cellText(cell), `${r},${col}`];
        const cols = Math.max(1, Number(attr(cell, 'number-columns-spanned') ?? 1) || 1);
        const rows = Math.max(1, Number(attr(cell, 'number-rows-spanned') ?? 1) || 1);
        for (let dr = 0; dr < rows; dr++) for (let dc = 0; dc < cols; dc++) if (dr || dc) covering.set(`${r + dr},${col + dc}`, entry);
        out.push(entry);
      }
    }
    grid.push(out);
  });
  return grid;
}

function emitTable(ctx: OdtContext, table: XmlNode): void {
  const cells = collapseKeyedMatrix(tableGrid(table));
  const text = matrixText(cells.map((r) => r.map((c) => c.text)));
  if (!text) return;
  ctx.out.push(newElement('Table', text, { text_as_html: htmlifySpannedMatrix(cells) }));
}
