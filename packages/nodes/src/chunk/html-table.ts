import { createRequire } from 'node:module';
import { isTag, isText, type ChildNode, type Element as DomElement } from 'domhandler';
import { collapseWhitespace, pyStrip } from './python-text.js';

// htmlparser2 (and its entity tables) loads when a chunker is created, not with the package.
// Chunking itself is synchronous: a direct caller that skipped `loadHtmlParser` gets it through
// Node's `require` of an ES module, which fails while an `import()` of it is under way elsewhere
// (the HTML partitioner's), hence the awaited load first.
let htmlparser2: typeof import('htmlparser2') | undefined;
const parser = (): typeof import('htmlparser2') => (htmlparser2 ??= createRequire(import.meta.url)('htmlparser2') as typeof import('htmlparser2'));

/** Loads the HTML parser the table chunking uses; chunker nodes await it in `create`. */
export async function loadHtmlParser(): Promise<void> {
  htmlparser2 ??= await import('htmlparser2');
}

/**
 * An element in lxml's shape (text before the first child, each child's trailing text as its
 * `tail`), which is the shape `unstructured` reasons about when it measures table HTML.
 */
export interface HtmlNode {
  tag: string;
  attrs: Array<[string, string]>;
  text: string | null;
  children: HtmlNode[];
  tail: string | null;
  /** Set on `<tr>` nodes whose parent was a `<thead>` before compaction. */
  inThead?: boolean;
}

/** One cell of a compacted table. */
export interface HtmlCell {
  /** Whitespace-normalised text directly inside the cell ("" when none). */
  text: string;
  /** The cell's compact HTML, `<td/>` when it has no text. */
  html: string;
}

/** One row of a compacted table. */
export interface HtmlRow {
  /** Compact HTML of the row. */
  html: string;
  cells: HtmlCell[];
  /** Texts of the cells that have any, in order. */
  cellTexts: string[];
  /** Length of `cellTexts.join(' ')`. */
  textLength: number;
  /** True when the row was in `<thead>` or holds a `<th>`. */
  isHeader: boolean;
  /** Header rows only: the row as written in the source HTML, cells turned into `<th>`. */
  headerHtml: string;
}

/** A table parsed from `metadata.text_as_html` and compacted as `unstructured` does. */
export interface HtmlTable {
  /** One-line compact HTML: no thead/tbody/tfoot, no attributes but colspan/rowspan, `th` as `td`. */
  html: string;
  rows: HtmlRow[];
}

const KEPT_ATTRIBUTES = new Set(['colspan', 'rowspan']);
const SECTION_TAGS = new Set(['thead', 'tbody', 'tfoot']);
// libxml2's HTML parser drops whitespace-only text directly inside these (they do not allow PCDATA).
const NO_PCDATA = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'colgroup']);

/**
 * Parses an HTML fragment the way lxml's `fragment_fromstring` accepts it: exactly one top-level
 * element with nothing but whitespace around it. Returns `undefined` when it is not such a fragment.
 */
export function parseHtmlFragment(html: string): HtmlNode | undefined {
  const doc = parser().parseDocument(html, { recognizeSelfClosing: true, lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true });
  let root: HtmlNode | undefined;
  for (const node of doc.children) {
    if (isTag(node)) {
      if (root) return undefined;
      root = toHtmlNode(node);
    } else if (isText(node)) {
      if (pyStrip(node.data)) return undefined;
    }
  }
  return root;
}

function toHtmlNode(el: DomElement): HtmlNode {
  const node: HtmlNode = { tag: el.name, attrs: Object.entries(el.attribs), text: null, children: [], tail: null };
  const dropBlank = NO_PCDATA.has(el.name);
  for (const child of el.children as ChildNode[]) {
    if (isTag(child)) node.children.push(toHtmlNode(child));
    else if (isText(child)) {
      if (dropBlank && !pyStrip(child.data)) continue;
      const last = node.children[node.children.length - 1];
      if (last) last.tail = (last.tail ?? '') + child.data;
      else node.text = (node.text ?? '') + child.data;
    }
  }
  return node;
}

/** Depth-first, document order, including `node` itself (lxml's `iter()`). */
export function* iterNodes(node: HtmlNode): Generator<HtmlNode> {
  yield node;
  for (const c of node.children) yield* iterNodes(c);
}

/** The first `<table>` at or below `node`, in document order. */
export function findTable(node: HtmlNode): HtmlNode | undefined {
  for (const n of iterNodes(node)) if (n.tag === 'table') return n;
  return undefined;
}

/** A deep copy of a node. */
export function cloneNode(node: HtmlNode): HtmlNode {
  return { ...node, attrs: node.attrs.map(([k, v]) => [k, v] as [string, string]), children: node.children.map(cloneNode) };
}

function escapeText(s: string): string {
  return s.replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#13;'));
}

function escapeAttribute(s: string): string {
  return s.replace(/[&<>"\n\r\t]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      case '\n':
        return '&#10;';
      case '\r':
        return '&#13;';
      default:
        return '&#9;';
    }
  });
}

/**
 * Serialises a node like lxml's `etree.tostring(el, encoding=str)`: XML syntax, `<tag/>` for an
 * element with neither text nor children, `<tag></tag>` when its text is the empty string.
 */
export function serializeNode(node: HtmlNode, withTail = true): string {
  let s = `<${node.tag}`;
  for (const [k, v] of node.attrs) s += ` ${k}="${escapeAttribute(v)}"`;
  if (node.text === null && node.children.length === 0) s += '/>';
  else {
    s += `>${node.text ? escapeText(node.text) : ''}`;
    for (const c of node.children) s += serializeNode(c, true);
    s += `</${node.tag}>`;
  }
  if (withTail && node.tail) s += escapeText(node.tail);
  return s;
}

// lxml.html's `drop_tag()`: the element goes, its text, children and tail stay in place.
function dropTag(parent: HtmlNode, index: number): void {
  const el = parent.children[index];
  if (!el) return;
  const previous = index > 0 ? parent.children[index - 1] : undefined;
  if (el.text) {
    if (previous) previous.tail = (previous.tail ?? '') + el.text;
    else parent.text = (parent.text ?? '') + el.text;
  }
  if (el.tail) {
    const last = el.children[el.children.length - 1];
    if (last) last.tail = (last.tail ?? '') + el.tail;
    else if (previous) previous.tail = (previous.tail ?? '') + el.tail;
    else parent.text = (parent.text ?? '') + el.tail;
  }
  parent.children.splice(index, 1, ...el.children);
}

function dropSections(node: HtmlNode): void {
  for (let i = 0; i < node.children.length; ) {
    const child = node.children[i] as HtmlNode;
    if (SECTION_TAGS.has(child.tag)) {
      if (child.tag === 'thead') for (const c of child.children) if (c.tag === 'tr') c.inThead = true;
      dropTag(node, i);
      continue; // the dropped element's children now sit at index i
    }
    dropSections(child);
    i++;
  }
}

/**
 * Parses `metadata.text_as_html` into a compact table (the library's `HtmlTable.from_html_text`).
 * Returns `undefined` when the HTML is not a single fragment or holds no `<table>`, which the
 * library treats as "no HTML".
 */
export function parseHtmlTable(textAsHtml: string): HtmlTable | undefined {
  const html = pyStrip(textAsHtml);
  if (!html) return undefined;
  const root = parseHtmlFragment(html);
  const table = root && findTable(root);
  if (!table) return undefined;

  dropSections(table);
  const headerSources = new Map<HtmlNode, string>();
  for (const row of table.children) {
    if (row.tag !== 'tr') continue;
    if (row.inThead || row.children.some((c) => c.tag === 'th')) headerSources.set(row, headerRowHtml(row));
  }
  for (const n of iterNodes(table)) {
    n.attrs = n.attrs.filter(([k]) => KEPT_ATTRIBUTES.has(k));
    if (n.tag === 'th') n.tag = 'td';
    if (n.text) n.text = collapseWhitespace(n.text);
    if (n.tail !== null && !pyStrip(n.tail)) n.tail = null;
  }

  const rows: HtmlRow[] = [];
  for (const tr of table.children) {
    if (tr.tag !== 'tr') continue;
    const cells = tr.children.map((td): HtmlCell => {
      const text = td.text ? collapseWhitespace(td.text) : '';
      return { text, html: text ? serializeNode(td) : '<td/>' };
    });
    const cellTexts = tr.children.map((td) => td.text ?? '').filter((t) => t.length > 0);
    const headerSource = headerSources.get(tr);
    rows.push({
      html: serializeNode(tr),
      cells,
      cellTexts,
      textLength: cellTexts.reduce((n, t) => n + t.length, 0) + Math.max(0, cellTexts.length - 1),
      isHeader: headerSource !== undefined,
      headerHtml: headerSource ?? '',
    });
  }
  return { html: serializeNode(table), rows };
}

function headerRowHtml(row: HtmlNode): string {
  const copy = cloneNode(row);
  for (const c of copy.children) if (c.tag === 'td') c.tag = 'th';
  return serializeNode(copy, false);
}
