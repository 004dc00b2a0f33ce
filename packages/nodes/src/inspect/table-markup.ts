/**
 * A table's `text_as_html` made safe to place in the report: the HTML comes from the document (or
 * from an element file anyone can write), so only table structure and text are kept.
 */
import escapeHtml from 'escape-html';
import { Parser } from 'htmlparser2';

const TABLE_TAGS = new Set(['table', 'caption', 'colgroup', 'col', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'br']);
const VOID_TAGS = new Set(['col', 'br']);
// Text inside these is code or styling, never cell content.
const SKIPPED_CONTENT = new Set(['script', 'style', 'template', 'noscript', 'title']);
const SPAN_ATTRIBUTES = ['colspan', 'rowspan'];

/**
 * Rebuilds table HTML from its table tags (with numeric `colspan`/`rowspan` only) and escaped
 * text; every other tag, attribute, comment and script is dropped, and the tags left open are
 * closed, so the result cannot run code or break out of its container.
 */
export function safeTableHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let skipping = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (SKIPPED_CONTENT.has(name)) skipping++;
        if (skipping || !TABLE_TAGS.has(name)) return;
        const attrs = SPAN_ATTRIBUTES.filter((a) => /^\d{1,4}$/.test(attribs[a] ?? '')).map((a) => ` ${a}="${attribs[a]}"`);
        out.push(`<${name}${attrs.join('')}>`);
        if (!VOID_TAGS.has(name)) open.push(name);
      },
      ontext(text) {
        if (!skipping) out.push(escapeHtml(text));
      },
      onclosetag(name) {
        if (SKIPPED_CONTENT.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        const at = open.lastIndexOf(name);
        if (skipping || at < 0) return;
        while (open.length > at) out.push(`</${open.pop()!}>`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  while (open.length) out.push(`</${open.pop()!}>`);
  return out.join('');
}
