import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * A small, namespace-aware XML element tree built with saxes, for the office formats (DOCX, PPTX)
 * whose parts are read whole and walked structurally. Names are local names; `uri` keeps the
 * namespace so callers can tell `w:p` from `a:p` where it matters. Transitional and Strict OOXML
 * use different namespace URIs for the same local names, so most lookups match local names only.
 */
export interface XmlNode {
  /** Local name, e.g. `p` for `<w:p>`. */
  name: string;
  /** Namespace URI ('' when none). */
  uri: string;
  attrs: XmlAttr[];
  /** Element children and text runs, in document order. */
  children: Array<XmlNode | string>;
}

/** One attribute of an {@link XmlNode}. */
export interface XmlAttr {
  local: string;
  uri: string;
  value: string;
}

/**
 * Parses an XML document into an {@link XmlNode} tree. Throws the parser's error for malformed
 * XML (callers wrap it into a coded error naming the file).
 */
export function parseXmlTree(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true, position: false });
  const root: XmlNode = { name: '#document', uri: '', attrs: [], children: [] };
  const stack: XmlNode[] = [root];
  let failure: Error | undefined;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const node: XmlNode = {
      name: tag.local,
      uri: tag.uri,
      attrs: Object.values(tag.attributes).map((a) => ({ local: a.local, uri: a.uri, value: a.value })),
      children: [],
    };
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (t: string): void => {
    stack[stack.length - 1]!.children.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.write(stripBom(xml)).close();
  if (failure) throw failure;
  const top = root.children.find((c): c is XmlNode => typeof c !== 'string');
  if (!top) throw new Error('XML document has no root element');
  return top;
}

function stripBom(s: string): string {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/** The element children of `node`, optionally only those with local name `name`. */
export function childElements(node: XmlNode, name?: string): XmlNode[] {
  const out: XmlNode[] = [];
  for (const c of node.children) if (typeof c !== 'string' && (name === undefined || c.name === name)) out.push(c);
  return out;
}

/** The first element child named `name`, if any. */
export function firstChild(node: XmlNode | undefined, name: string): XmlNode | undefined {
  if (!node) return undefined;
  for (const c of node.children) if (typeof c !== 'string' && c.name === name) return c;
  return undefined;
}

/** Follows a path of local names through first children: `path(sp, 'spPr', 'xfrm', 'off')`. */
export function path(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  let cur = node;
  for (const n of names) cur = firstChild(cur, n);
  return cur;
}

/** Every descendant element named `name`, in document order (not descending into matches). */
export function findAll(node: XmlNode, name: string, out: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    if (typeof c === 'string') continue;
    if (c.name === name) out.push(c);
    else findAll(c, name, out);
  }
  return out;
}

/** True when some descendant element is named `name`. */
export function hasDescendant(node: XmlNode, name: string): boolean {
  for (const c of node.children) {
    if (typeof c === 'string') continue;
    if (c.name === name || hasDescendant(c, name)) return true;
  }
  return false;
}

/**
 * The value of attribute `local`. With `uri` given, only an attribute in that namespace matches;
 * with `uri === ''`, only an unqualified one; otherwise the first attribute with that local name.
 */
export function attr(node: XmlNode | undefined, local: string, uri?: string): string | undefined {
  if (!node) return undefined;
  for (const a of node.attrs) if (a.local === local && (uri === undefined || a.uri === uri)) return a.value;
  return undefined;
}

/** All text inside `node`, concatenated. */
export function textContent(node: XmlNode): string {
  let s = '';
  for (const c of node.children) s += typeof c === 'string' ? c : textContent(c);
  return s;
}

/**
 * Reads an OOXML on/off property such as `<w:b/>`, `<w:b w:val="0"/>` or `<a:rPr b="1">`:
 * present without a value means on; `0`, `false` and `off` mean off.
 */
export function isOn(value: string | undefined, present: boolean): boolean {
  if (!present) return false;
  if (value === undefined) return true;
  return !['0', 'false', 'off'].includes(value.toLowerCase());
}
