import { DomHandler, type Document, type ParentNode } from 'domhandler';
import { Parser } from 'htmlparser2';

/** Levels below the fold point kept as they are when nesting passes the depth limit. */
const INNER_LEVELS_KEPT = 32;

/** htmlparser2's stack of open tag names, innermost first (private in its types). */
type ParserStack = { stack: string[] };

/**
 * A DOM builder whose tree is at most `maxDepth` elements deep. The walks over the tree recurse
 * (100,000 nested `<div>`s overflow the call stack), and htmlparser2 12 keeps its open elements
 * innermost first, `unshift`ing each one: quadratic in the depth. When an element would open
 * deeper, the element 32 levels up the open chain is folded away, from the tree (its children
 * take its place in its parent) and from the parser's stack, so both stay short; the outer and
 * innermost structure stay and no text is lost. A closing tag of a folded element closes the
 * nearest open element of that name instead, if any.
 */
class DepthLimitedHandler extends DomHandler {
  /** Elements folded away. */
  flattened = 0;
  private readonly fold: number;
  private parserStack: string[] = [];

  constructor(private readonly maxDepth: number) {
    super();
    this.fold = Math.max(1, maxDepth - INNER_LEVELS_KEPT);
  }

  override onparserinit(parser: Parser): void {
    super.onparserinit(parser);
    this.parserStack = (parser as unknown as ParserStack).stack;
  }

  override onopentag(name: string, attribs: Record<string, string>): void {
    // tagStack[0] is the document, so the new element's depth is tagStack.length.
    if (this.tagStack.length > this.maxDepth) this.foldOne();
    super.onopentag(name, attribs);
  }

  private foldOne(): void {
    const folded = this.tagStack[this.fold] as ParentNode & { name: string };
    // The parser has already pushed the new element unless it is void (`<br>`): then the folded
    // element's entry is one nearer the front. Either way the entry bears the folded element's name.
    const entry = this.tagStack.length - this.fold;
    const at = this.parserStack[entry] === folded.name ? entry : this.parserStack[entry - 1] === folded.name ? entry - 1 : -1;
    if (at < 0) return;
    this.parserStack.splice(at, 1);
    this.tagStack.splice(this.fold, 1);
    this.flattened++;
    const parent = this.tagStack[this.fold - 1]!;
    // An open element is its parent's last child.
    parent.children.pop();
    let prev = parent.children[parent.children.length - 1] ?? null;
    for (const child of folded.children) {
      child.parent = parent;
      child.prev = prev;
      if (prev) prev.next = child;
      parent.children.push(child);
      prev = child;
    }
    if (prev) prev.next = null;
  }
}

/** A parsed HTML document and how many elements nesting past the depth limit folded away. */
export interface HtmlDom {
  document: Document;
  flattened: number;
}

/**
 * Parses HTML (entities decoded, tag and attribute names lower-cased) into a DOM at most
 * `maxDepth` elements deep; see {@link DepthLimitedHandler} for what happens past it.
 */
export function parseHtmlDom(html: string, maxDepth: number): HtmlDom {
  const handler = new DepthLimitedHandler(maxDepth);
  new Parser(handler, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }).end(html);
  return { document: handler.root, flattened: handler.flattened };
}
