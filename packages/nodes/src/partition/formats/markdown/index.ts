import { Marked } from 'marked';
import type { Element } from '@quarry/core';
import type { FormatPartitioner } from '../../types.js';
import { decodeText } from '../shared/decode-text.js';
import { limitWarning, partitionLimits } from '../../limits.js';
import { partitionHtmlString, type HtmlPartitionOptions } from '../html/index.js';
import { capMarkdownNesting } from './nesting.js';

const marked = new Marked({ gfm: true });

/**
 * Partitions Markdown the way `unstructured` does: render it to HTML, then partition the HTML.
 * Headings become Titles (`category_depth` = level - 1), list items ListItems, fenced and
 * indented code CodeSnippets, pipe tables Tables with `text_as_html`, and paragraphs and block
 * quotes are classified like any other paragraph. Rendering uses marked (GitHub-flavoured).
 * Block quotes and lists nested deeper than `maxNestingDepth` are read less deeply nested (see
 * {@link capMarkdownNesting}), with one warning through `options.warn`.
 */
export function partitionMarkdownString(markdown: string, options: HtmlPartitionOptions = {}): Element[] {
  if (!markdown.trim()) return [];
  const limits = partitionLimits();
  const { text, capped } = capMarkdownNesting(markdown.replace(/\r\n?/gu, '\n'), limits.maxNestingDepth);
  let warned = false;
  const warn = (message: string): void => {
    if (!warned) options.warn?.(message);
    warned = true;
  };
  if (capped > 0) warn(limitWarning('maxNestingDepth', options.filename ?? 'Markdown', `the structure (not the text) of ${capped} lines nested`, limits));
  const html = marked.parse(text, { async: false });
  return partitionHtmlString(`<html><body>${html}</body></html>`, { filename: options.filename, warn });
}

/** Markdown documents (`text/markdown`). */
export const markdownPartitioner: FormatPartitioner = {
  partition: (bytes, options) =>
    partitionMarkdownString(decodeText(bytes, options.encoding), { filename: options.filename, warn: (m) => options.logger.warn(m) }),
};
