import { Marked } from 'marked';
import type { Element } from '@quarry/core';
import type { FormatPartitioner } from '../types.js';
import { decodeText } from './decode-text.js';
import { partitionHtmlString } from './html.js';

const marked = new Marked({ gfm: true });

/**
 * Partitions Markdown the way the reference does: render it to HTML, then partition the HTML.
 * Headings become Titles (`category_depth` = level - 1), list items ListItems, fenced and
 * indented code CodeSnippets, pipe tables Tables with `text_as_html`, and paragraphs and block
 * quotes are classified like any other paragraph. Rendering uses marked (GitHub-flavoured).
 */
export function partitionMarkdownString(markdown: string): Element[] {
  if (!markdown.trim()) return [];
  const html = marked.parse(markdown.replace(/\r\n?/gu, '\n'), { async: false });
  return partitionHtmlString(`<html><body>${html}</body></html>`);
}

/** Markdown documents (`text/markdown`). */
export const markdownPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionMarkdownString(decodeText(bytes, options.encoding)),
};
