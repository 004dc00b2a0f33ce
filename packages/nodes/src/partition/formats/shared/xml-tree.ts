import { SaxesParser } from 'saxes';

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

/** A parsed XML part: its root element and how many levels of nesting were folded away. */
export interface XmlTree {
  root: XmlNode;
  /** Elements past the depth limit whose children were lifted into their parent (0 when none). */
  flattened: number;
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/**
 * Namespace bindings in scope, one stack of URIs per prefix. saxes' own resolution walks every
 * open element for each name, quadratic in the depth (100,000 nested elements never finish);
 * here a lookup is the top of the prefix's stack and an element's declarations are undone when
 * it closes.
 */
class NamespaceScope {
  private readonly bindings = new Map<string, string[]>([
    ['xml', [XML_NS]],
    ['xmlns', [XMLNS_NS]],
  ]);

  /** Binds each declaration; returns the prefixes to release when the element closes. */
  declare(attributes: Record<string, string>): string[] | undefined {
    let declared: string[] | undefined;
    for (const [name, value] of Object.entries(attributes)) {
      const prefix = name === 'xmlns' ? '' : name.startsWith('xmlns:') ? name.slice(6) : undefined;
      if (prefix === undefined) continue;
      let stack = this.bindings.get(prefix);
      if (!stack) this.bindings.set(prefix, (stack = []));
      stack.push(value.trim());
      (declared ??= []).push(prefix);
    }
    return declared;
  }

  release(declared: readonly string[] | undefined): void {
    for (const prefix of declared ?? []) this.bindings.get(prefix)!.pop();
  }

  /** The URI bound to `prefix`; '' for no prefix without a default namespace; undefined when unbound. */
  resolve(prefix: string): string | undefined {
    const stack = this.bindings.get(prefix);
    const uri = stack?.[stack.length - 1];
    if (uri !== undefined) return uri;
    return prefix === '' ? '' : undefined;
  }
}

function splitName(name: string): { prefix: string; local: string } {
  const colon = name.indexOf(':');
  return colon < 0 ? { prefix: '', local: name } : { prefix: name.slice(0, colon), local: name.slice(colon + 1) };
}

/** Levels below the fold point kept as they are when nesting passes the depth limit. */
const INNER_LEVELS_KEPT = 32;

/** One open element: its node, and the prefixes it declared. */
interface OpenElement {
  node: XmlNode;
  declared: string[] | undefined;
}

/**
 * Parses an XML document into an {@link XmlNode} tree in time linear in its size. Throws the
 * parser's error for malformed XML or an unbound prefix (callers wrap it into a coded error naming
 * the file).
 *
 * The tree is at most `maxDepth` elements deep: when an element would open deeper, the element
 * 32 levels up the open chain is folded away (its children take its place in its parent). The
 * outer structure (body, sections) and the innermost (paragraph, run, text) stay intact and no
 * text is lost, while walks over the tree stay within the call stack; `flattened` counts the
 * folded elements so that the caller can warn.
 */
export function parseXmlTree(xml: string, maxDepth = Number.POSITIVE_INFINITY): XmlTree {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const root: XmlNode = { name: '#document', uri: '', attrs: [], children: [] };
  const scope = new NamespaceScope();
  // Every open element, and the subsequence of them still in the tree (`tree[0]` is the document).
  const open: OpenElement[] = [];
  const tree: XmlNode[] = [root];
  // Folding near the top keeps the splice short (the elements above it move down) while leaving the
  // innermost levels (a paragraph's runs, a table's cells) intact.
  const fold = Math.max(1, maxDepth - INNER_LEVELS_KEPT);
  let flattened = 0;
  let failure: Error | undefined;
  const fail = (message: string): void => {
    failure ??= new Error(message);
  };
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (tag) => {
    const attributes = tag.attributes as Record<string, string>;
    const declared = scope.declare(attributes);
    const { prefix, local } = splitName(tag.name);
    const uri = scope.resolve(prefix);
    if (uri === undefined) fail(`unbound namespace prefix: ${JSON.stringify(prefix)}`);
    const attrs: XmlAttr[] = [];
    for (const [name, value] of Object.entries(attributes)) {
      const a = splitName(name);
      // Unprefixed attributes are in no namespace (the default namespace does not apply to them).
      const attrUri = name === 'xmlns' ? XMLNS_NS : a.prefix === '' ? '' : scope.resolve(a.prefix);
      if (attrUri === undefined) fail(`unbound namespace prefix: ${JSON.stringify(a.prefix)}`);
      attrs.push({ local: a.local, uri: attrUri ?? a.prefix, value });
    }
    const node: XmlNode = { name: local, uri: uri ?? prefix, attrs, children: [] };
    if (tree.length > maxDepth) {
      flattened++;
      const [folded] = tree.splice(fold, 1) as [XmlNode];
      const parent = tree[fold - 1]!;
      // An open element is its parent's last child.
      parent.children.pop();
      for (const c of folded.children) parent.children.push(c);
    }
    tree[tree.length - 1]!.children.push(node);
    tree.push(node);
    open.push({ node, declared });
  });
  parser.on('closetag', () => {
    const closed = open.pop();
    if (!closed) return;
    scope.release(closed.declared);
    if (tree[tree.length - 1] === closed.node) tree.pop();
  });
  const onText = (t: string): void => {
    tree[tree.length - 1]!.children.push(t);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.write(stripBom(xml)).close();
  if (failure) throw failure;
  const top = root.children.find((c): c is XmlNode => typeof c !== 'string');
  if (!top) throw new Error('XML document has no root element');
  return { root: top, flattened };
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
