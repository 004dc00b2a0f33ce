/**
 * A vision model's HTML answer -> elements. Blocks the model labelled with `data-category` become
 * one element of that category each; unlabelled stretches go through the HTML partitioner, which
 * classifies them by their tags (headings, paragraphs, lists, tables) as it does for any web page.
 */
import { isTag, isText, type ChildNode, type Element as DomElement } from 'domhandler';
import { getOuterHTML, textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { Element, ElementType } from '@quarry/core';
import { ELEMENT_TYPE_ALIASES, ELEMENT_TYPES } from '@quarry/core/element';
import { collapseWhitespace } from '../../chunk/python-text.js';
import { partitionHtmlString } from '../formats/html/index.js';
import { newElement } from '../formats/shared/new-element.js';
import { formatHtml } from './format-html.js';

const TYPE_BY_LOWER = new Map<string, ElementType>([
  ...ELEMENT_TYPES.map((t) => [t.toLowerCase(), t] as const),
  ...Object.entries(ELEMENT_TYPE_ALIASES).map(([alias, t]) => [alias.toLowerCase(), t] as const),
  ['list', 'ListItem'],
  ['heading', 'Title'],
  ['text', 'NarrativeText'],
  ['code', 'CodeSnippet'],
  ['pagenumber', 'PageNumber'],
  ['page-number', 'PageNumber'],
]);

/** The element type a model's category names; unknown names are UncategorizedText. */
export function elementTypeOf(category: string): ElementType {
  const key = category
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '');
  return TYPE_BY_LOWER.get(category.trim().toLowerCase()) ?? TYPE_BY_LOWER.get(key) ?? 'UncategorizedText';
}

/** Removes a markdown code fence around an answer (models add one despite being asked not to). */
export function stripFence(text: string): string {
  const m = /^\s*```[\w-]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(text);
  return (m ? m[1]! : text).trim();
}

/** Options of {@link elementsFromVlmHtml}. */
export interface VlmHtmlOptions {
  /** Prettify the `text_as_html` kept on tables (the Unstructured workflow API's `format_html`). */
  formatHtml: boolean;
}

const HEADING_DEPTH: Readonly<Record<string, number>> = { h1: 0, h2: 1, h3: 2, h4: 3, h5: 4, h6: 5 };

function hasCategorized(node: ChildNode): boolean {
  if (!isTag(node)) return false;
  if (node.attribs['data-category'] !== undefined) return true;
  return node.children.some(hasCategorized);
}

function findTag(node: DomElement, name: string): DomElement | undefined {
  if (node.name === name) return node;
  for (const c of node.children) {
    if (!isTag(c)) continue;
    const hit = findTag(c, name);
    if (hit) return hit;
  }
  return undefined;
}

// Text of a node with a space between blocks and cells, so "<td>a</td><td>b</td>" reads "a b".
function blockText(node: ChildNode): string {
  const parts: string[] = [];
  const walk = (n: ChildNode): void => {
    if (isText(n)) parts.push(n.data);
    else if (isTag(n)) {
      if (n.name === 'br') parts.push('\n');
      if (n.name === 'img') parts.push(n.attribs.alt ?? '');
      n.children.forEach(walk);
      if (!INLINE.has(n.name)) parts.push(' ');
    }
  };
  walk(node);
  return collapseWhitespace(parts.join('')).trim();
}

const INLINE = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

/**
 * Turns a model's HTML answer for one page into elements (temporary ids, no page metadata).
 * Tables keep their HTML in `metadata.text_as_html` (prettified when `formatHtml`) with
 * `table_extraction_method: "vlm"`; headings get `category_depth` from their level.
 */
export function elementsFromVlmHtml(answer: string, options: VlmHtmlOptions): Element[] {
  const doc = parseDocument(stripFence(answer), { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  const out: Element[] = [];
  let loose: ChildNode[] = [];
  const flush = (): void => {
    if (loose.length === 0) return;
    const html = loose.map((n) => getOuterHTML(n, { decodeEntities: true })).join('');
    loose = [];
    for (const el of partitionHtmlString(html)) {
      if (el.type === 'Table' && el.metadata.text_as_html) {
        el.metadata.text_as_html = formatHtml(el.metadata.text_as_html, options.formatHtml);
        el.metadata.table_extraction_method = 'vlm';
      }
      out.push(el);
    }
  };
  const visit = (nodes: ChildNode[]): void => {
    for (const node of nodes) {
      if (isTag(node) && node.attribs['data-category'] !== undefined) {
        flush();
        emit(node, elementTypeOf(node.attribs['data-category']), out, options);
      } else if (isTag(node) && ['html', 'head', 'body', 'main', 'article', 'section', 'div'].includes(node.name) && node.children.some(hasCategorized)) {
        flush();
        visit(node.name === 'head' ? [] : node.children);
      } else {
        loose.push(node);
      }
    }
  };
  visit(doc.children);
  flush();
  return out;
}

function emit(node: DomElement, type: ElementType, out: Element[], options: VlmHtmlOptions): void {
  // A whole list labelled once: one ListItem per item, as the category asks.
  if (type === 'ListItem' && (node.name === 'ul' || node.name === 'ol')) {
    for (const li of node.children) {
      if (!isTag(li) || li.name !== 'li') continue;
      const text = blockText(li);
      if (text) out.push(newElement('ListItem', text));
    }
    return;
  }
  if (type === 'Table') {
    const table = findTag(node, 'table');
    const text = blockText(node);
    if (!text && !table) return;
    const el = newElement('Table', text);
    if (table) {
      dropCategories(table);
      el.metadata.text_as_html = formatHtml(getOuterHTML(table, { decodeEntities: true }), options.formatHtml);
      el.metadata.table_extraction_method = 'vlm';
    }
    out.push(el);
    return;
  }
  const text = type === 'Image' && node.name === 'img' ? collapseWhitespace(node.attribs.alt ?? '').trim() : blockText(node);
  if (!text && type !== 'Image') return;
  const el = newElement(type, text);
  const depth = HEADING_DEPTH[node.name];
  if (type === 'Title' && depth !== undefined) el.metadata.category_depth = depth;
  out.push(el);
}

// data-category is scaffolding of the prompt, not part of the page's HTML.
function dropCategories(node: DomElement): void {
  delete node.attribs['data-category'];
  for (const c of node.children) if (isTag(c)) dropCategories(c);
}

/** The visible text of an HTML fragment (whitespace collapsed). */
export function htmlText(html: string): string {
  return collapseWhitespace(textContent(parseDocument(html).children)).trim();
}
