/**
 * `format_html`: generated HTML kept in `text_as_html`, either prettified (one block per line,
 * two-space indentation) or compact (whitespace between tags removed).
 */
import { isTag, isText, type ChildNode, type Element as DomElement } from 'domhandler';
import { getOuterHTML } from 'domutils';
import { parseDocument } from 'htmlparser2';

// Elements whose children go on lines of their own when prettified.
const BLOCK_CONTAINERS = new Set([
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'ul',
  'ol',
  'dl',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'figure',
  'colgroup',
  'blockquote',
]);

function dropBlankText(nodes: ChildNode[]): ChildNode[] {
  return nodes.filter((n) => !(isText(n) && n.data.trim() === ''));
}

function openTag(node: DomElement): string {
  const attrs = Object.entries(node.attribs).map(([k, v]) => ` ${k}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}"`);
  return `<${node.name}${attrs.join('')}>`;
}

function compact(nodes: ChildNode[]): string {
  return nodes
    .map((n) => {
      if (isTag(n)) {
        const kids = BLOCK_CONTAINERS.has(n.name) ? dropBlankText(n.children) : n.children;
        if (kids.length === 0) return getOuterHTML(n, { decodeEntities: true });
        return `${openTag(n)}${compact(kids)}</${n.name}>`;
      }
      if (isText(n)) return getOuterHTML(n, { decodeEntities: true }).replace(/\s+/g, ' ');
      return getOuterHTML(n, { decodeEntities: true });
    })
    .join('');
}

function pretty(nodes: ChildNode[], indent: string, lines: string[]): void {
  for (const n of dropBlankText(nodes)) {
    if (isTag(n) && BLOCK_CONTAINERS.has(n.name) && n.children.some(isTag)) {
      lines.push(`${indent}${openTag(n)}`);
      pretty(n.children, `${indent}  `, lines);
      lines.push(`${indent}</${n.name}>`);
    } else {
      lines.push(`${indent}${compact([n]).trim()}`);
    }
  }
}

/**
 * Reformats an HTML fragment: `prettify` puts every row, cell group and list item on its own line,
 * indented by nesting; otherwise whitespace between tags is removed. Text content is unchanged
 * apart from runs of whitespace becoming one space.
 *
 * @example
 * ```ts
 * formatHtml('<table><tr><td>a</td></tr></table>', true);
 * // "<table>\n  <tr>\n    <td>a</td>\n  </tr>\n</table>"
 * ```
 */
export function formatHtml(html: string, prettify: boolean): string {
  const doc = parseDocument(html, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  if (!prettify) return compact(dropBlankText(doc.children)).trim();
  const lines: string[] = [];
  pretty(doc.children, '', lines);
  return lines.join('\n');
}
