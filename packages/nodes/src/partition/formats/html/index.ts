import { isTag, isText, type ChildNode, type Element as DomElement, type ParentNode } from 'domhandler';
import iconv from 'iconv-lite';
import type { Element, ElementMetadata, ElementType } from '@quarry/core';
import { collapseWhitespace, pyStrip } from '../../../chunk/python-text.js';
import { classifyMarkupText, isEmailAddress } from '../../text-classify.js';
import type { FormatPartitioner } from '../../types.js';
import { limitWarning, partitionLimits } from '../../limits.js';
import { decodeText } from '../shared/decode-text.js';
import { parseHtmlDom } from './dom.js';
import { newElement } from '../shared/new-element.js';
import { htmlifyMatrix } from '../shared/table-html.js';

/**
 * HTML partitioning after `unstructured`'s `partition/html/parser.py`: every block (`<p>`, a
 * heading, a list item, the text runs of a `<div>` between its child blocks) becomes one element,
 * inline markup joins into the paragraph it sits in, whitespace is normalized except in `<pre>`,
 * and a `<table>` becomes one Table whose cells hold all their text (nested tables included).
 *
 * Where `unstructured` drops content, this partitioner keeps what a browser shows: unknown tags
 * (`<font>`, inline-XBRL `<ix:nonNumeric>`) are transparent, `<form>` and definition lists are
 * read like `<div>`. Paragraph text that is not a heading, list item or code is classified like
 * plain text (NarrativeText, Title, UncategorizedText, ListItem for a leading bullet, Address,
 * EmailAddress), as `unstructured` did before its 0.15 parser; the partition node adds `parent_id`.
 */

type BlockKind = 'flow' | 'title' | 'list-item' | 'code' | 'address';

// Dropped with their content; their tail text stays in the paragraph (lxml `strip_elements`).
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'del',
  'img',
  'picture',
  'source',
  'svg',
  'math',
  'canvas',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
  'map',
  'area',
  'button',
  'label',
  'input',
  'select',
  'option',
  'optgroup',
  'textarea',
  'datalist',
  'progress',
  'meter',
]);
// Dropped with their content, and they end the paragraph around them (likely boilerplate).
const DROPPED_BLOCKS = new Set(['nav', 'details', 'summary', 'figure', 'hr', 'dialog', 'frameset', 'frame']);
// Blocks whose text runs are classified.
const FLOW_BLOCKS = new Set([
  'html',
  'body',
  'main',
  'article',
  'aside',
  'blockquote',
  'center',
  'div',
  'footer',
  'header',
  'hgroup',
  'section',
  'form',
  'fieldset',
  'legend',
  'dl',
  'dt',
  'dd',
  'figcaption',
  'caption',
  'p',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
  'noframes',
  'menu',
  'search',
]);
const LIST_BLOCKS = new Set(['ol', 'ul', 'dl', 'menu']);
const HEADINGS: Readonly<Record<string, number>> = { h1: 0, h2: 1, h3: 2, h4: 3, h5: 4, h6: 5 };

function isBlock(tag: string): boolean {
  return (
    FLOW_BLOCKS.has(tag) ||
    LIST_BLOCKS.has(tag) ||
    tag in HEADINGS ||
    tag === 'li' ||
    tag === 'pre' ||
    tag === 'table' ||
    tag === 'address' ||
    DROPPED_BLOCKS.has(tag)
  );
}

interface BlockContext {
  /** Kind of the enclosing block. */
  kind: BlockKind;
  /** `category_depth` of the enclosing block. */
  depth: number | undefined;
  /** Number of enclosing `<ol>`/`<ul>`/`<dl>` elements. */
  listDepth: number;
}

interface Segment {
  text: string;
  emphasis: string;
}

/** Text of one paragraph under construction, with its emphasis and link annotations. */
class Paragraph {
  private segments: Segment[] = [];
  private links: Array<{ text: string; url: string }> = [];

  constructor(
    private readonly out: Element[],
    public kind: BlockKind,
    private readonly depth: number | undefined,
  ) {}

  add(text: string, emphasis: string): void {
    this.segments.push({ text, emphasis });
  }

  /** Marks the position where an anchor starts. */
  mark(): number {
    return this.segments.length;
  }

  /** Adds a link annotation for the text added since `start`. */
  link(start: number, url: string | undefined): void {
    const text = collapseWhitespace(
      this.segments
        .slice(start)
        .map((s) => s.text)
        .join(''),
    );
    if (text && url) this.links.push({ text, url });
  }

  /** Emits the accumulated paragraph as an element (if it has text) and starts a new one. */
  flush(nextKind: BlockKind = this.kind): void {
    const segments = this.segments;
    const links = this.links;
    this.segments = [];
    this.links = [];
    const kind = this.kind;
    this.kind = nextKind;
    const raw = segments.map((s) => s.text).join('');
    const text = kind === 'code' ? raw.replace(/^\n/u, '').replace(/\n$/u, '') : collapseWhitespace(raw);
    if (!text.trim()) return;

    let type: ElementType;
    let finalText = text;
    let depth: number | undefined;
    if (kind === 'title') {
      type = 'Title';
      depth = this.depth;
    } else if (kind === 'list-item') {
      type = 'ListItem';
      depth = this.depth;
    } else if (kind === 'code') type = 'CodeSnippet';
    else if (kind === 'address') type = isEmailAddress(text) ? 'EmailAddress' : 'Address';
    else {
      const c = classifyMarkupText(text);
      if (!c) return;
      type = c.type;
      finalText = c.text;
      if (type === 'Title' || type === 'ListItem') depth = 0;
    }

    const metadata: ElementMetadata = {};
    if (depth !== undefined) metadata.category_depth = depth;
    const emphasized = segments.map((s) => ({ text: collapseWhitespace(s.text), tags: s.emphasis })).filter((s) => s.text && s.tags);
    if (emphasized.length > 0) {
      metadata.emphasized_text_contents = emphasized.map((e) => e.text);
      metadata.emphasized_text_tags = emphasized.map((e) => e.tags);
    }
    if (links.length > 0) {
      metadata.link_texts = links.map((l) => l.text);
      metadata.link_urls = links.map((l) => l.url);
    }
    this.out.push(newElement(type, finalText, metadata));
  }
}

function addEmphasis(emphasis: string, mark: 'b' | 'i'): string {
  return [...new Set([...emphasis, mark])].sort().join('');
}

/** Walks the DOM and collects elements in document order. */
class HtmlWalker {
  readonly elements: Element[] = [];

  block(node: ParentNode, kind: BlockKind, depth: number | undefined, listDepth: number): void {
    const para = new Paragraph(this.elements, kind, depth);
    this.children(node.children, para, '', { kind, depth, listDepth });
    para.flush();
  }

  private children(nodes: ChildNode[], para: Paragraph, emphasis: string, ctx: BlockContext): void {
    for (const child of nodes) {
      if (isText(child)) para.add(child.data, emphasis);
      else if (isTag(child)) this.element(child, para, emphasis, ctx);
    }
  }

  private element(el: DomElement, para: Paragraph, emphasis: string, ctx: BlockContext): void {
    const tag = el.name.toLowerCase();
    if (DROPPED.has(tag)) return;
    if (tag === 'br') {
      para.add('\n', emphasis);
      return;
    }
    if (isBlock(tag)) {
      // A block ends the paragraph before it; text after it is classified on its own.
      para.flush(para.kind === 'code' ? 'code' : 'flow');
      this.childBlock(el, tag, ctx);
      return;
    }
    let inner = emphasis;
    if (tag === 'b' || tag === 'strong') inner = addEmphasis(emphasis, 'b');
    else if (tag === 'i' || tag === 'em') inner = addEmphasis(emphasis, 'i');
    if (tag === 'a') {
      const start = para.mark();
      this.children(el.children, para, inner, ctx);
      para.link(start, el.attribs.href?.trim());
      return;
    }
    this.children(el.children, para, inner, ctx);
  }

  private childBlock(el: DomElement, tag: string, ctx: BlockContext): void {
    const listDepth = ctx.listDepth;
    if (DROPPED_BLOCKS.has(tag)) return;
    if (tag === 'table') {
      this.table(el);
      return;
    }
    // Paragraphs inside a list item ("loose" Markdown lists render as <li><p>) are the item.
    if (ctx.kind === 'list-item' && (tag === 'p' || tag === 'div')) {
      this.block(el, 'list-item', ctx.depth, listDepth);
      return;
    }
    const heading = HEADINGS[tag];
    if (heading !== undefined) this.block(el, 'title', heading, listDepth);
    else if (tag === 'li') this.block(el, 'list-item', listDepth, listDepth);
    else if (tag === 'pre') this.block(el, 'code', undefined, listDepth);
    else if (tag === 'address') this.block(el, 'address', undefined, listDepth);
    else this.block(el, 'flow', undefined, LIST_BLOCKS.has(tag) ? listDepth + 1 : listDepth);
  }

  private table(el: DomElement): void {
    const rows: string[][] = [];
    for (const tr of tableRows(el)) {
      rows.push(tr.children.filter((c): c is DomElement => isTag(c) && (c.name === 'td' || c.name === 'th')).map(cellText));
    }
    const text = rows
      .map((r) => r.filter(Boolean).join(' '))
      .filter(Boolean)
      .join(' ');
    if (!text) return;
    this.elements.push(newElement('Table', text, { text_as_html: htmlifyMatrix(rows) }));
  }
}

// Rows of this table (not of tables nested in its cells).
function tableRows(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (const c of table.children) {
    if (!isTag(c)) continue;
    if (c.name === 'tr') rows.push(c);
    else if (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot') {
      for (const r of c.children) if (isTag(r) && r.name === 'tr') rows.push(r);
    }
  }
  return rows;
}

// Every text node in the cell, each stripped, joined by single spaces (`unstructured`'s
// `" ".join(t.strip() for t in td.itertext())`); a nested table's text is part of its cell.
function cellText(td: DomElement): string {
  const parts: string[] = [];
  const visit = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (isText(n)) {
        const t = pyStrip(n.data);
        if (t) parts.push(t);
      } else if (isTag(n) && !DROPPED.has(n.name)) visit(n.children);
    }
  };
  visit(td.children);
  return parts.join(' ');
}

function findFirst(nodes: ChildNode[], tag: string): DomElement | undefined {
  for (const n of nodes) {
    if (!isTag(n)) continue;
    if (n.name === tag) return n;
    const found = findFirst(n.children, tag);
    if (found) return found;
  }
  return undefined;
}

/** Options of {@link partitionHtmlString}. */
export interface HtmlPartitionOptions {
  /** The document's name, for the warning. */
  filename?: string;
  /** Receives the warning when nesting passes `maxNestingDepth` (its structure is flattened, its text kept). */
  warn?: (message: string) => void;
}

/**
 * Partitions an HTML document held in a string. The content root is `<main>` when the document
 * has one, else `<body>`, else the whole document. Elements nested deeper than `maxNestingDepth`
 * are read as if less deeply nested, with a warning.
 */
export function partitionHtmlString(html: string, options: HtmlPartitionOptions = {}): Element[] {
  const limits = partitionLimits();
  const { document: doc, flattened } = parseHtmlDom(html, limits.maxNestingDepth);
  if (flattened > 0) options.warn?.(limitWarning('maxNestingDepth', options.filename ?? 'HTML', 'the structure (not the text) of elements nested', limits));
  const root = findFirst(doc.children, 'main') ?? findFirst(doc.children, 'body') ?? doc;
  const walker = new HtmlWalker();
  walker.block(root, 'flow', undefined, 0);
  return walker.elements;
}

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/iu;
const XML_ENCODING = /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/iu;

/**
 * Decodes HTML bytes: a byte-order mark first, then a `<meta charset>` (or `http-equiv`
 * content-type charset, or XML declaration encoding) in the first 4 KiB, then `encoding`.
 */
export function decodeHtml(bytes: Uint8Array, encoding: string): string {
  const head = iconv.decode(Buffer.from(bytes.subarray(0, 4096)), 'latin1');
  const declared = META_CHARSET.exec(head)?.[1] ?? XML_ENCODING.exec(head)?.[1];
  const hasBom = (bytes[0] === 0xef && bytes[1] === 0xbb) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (!hasBom && declared && iconv.encodingExists(declared)) return decodeText(bytes, declared);
  return decodeText(bytes, encoding);
}

/** HTML and XHTML documents. */
export const htmlPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionHtmlString(decodeHtml(bytes, options.encoding), { filename: options.filename, warn: (m) => options.logger.warn(m) }),
};
