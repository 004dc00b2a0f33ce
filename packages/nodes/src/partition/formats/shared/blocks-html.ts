import escapeHtml from 'escape-html';
import type { Element } from '@quarry/core';
import { partitionHtmlString } from '../html/index.js';
import type { FormatPartitionOptions } from '../../types.js';

/**
 * A document's block structure, as the line-based readers (reStructuredText, Org) and the RTF
 * reader find it. It is written as HTML and partitioned by the HTML partitioner, as the Python
 * library `unstructured` converts these formats to HTML (with pandoc) and partitions that.
 */
export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] }
  | { kind: 'code'; text: string }
  | { kind: 'table'; rows: string[][]; header: boolean };

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading': {
      const h = `h${Math.min(Math.max(block.level, 1), 6)}`;
      return `<${h}>${escapeHtml(block.text)}</${h}>`;
    }
    case 'paragraph':
      return `<p>${escapeHtml(block.text)}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      return `<${tag}>${block.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</${tag}>`;
    }
    case 'code':
      return `<pre>${escapeHtml(block.text)}</pre>`;
    case 'table': {
      const row = (cells: string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
      const [first, ...rest] = block.rows;
      const head = first && block.header ? `<thead>${row(first, 'th')}</thead>` : '';
      const body = (block.header ? rest : block.rows).map((r) => row(r, 'td')).join('');
      return `<table>${head}<tbody>${body}</tbody></table>`;
    }
  }
}

/** The blocks as one HTML document. */
export function blocksToHtml(blocks: readonly Block[]): string {
  return `<html><body>${blocks.map(blockHtml).join('\n')}</body></html>`;
}

/** Partitions the blocks through the HTML partitioner: Title, NarrativeText, ListItem, Table with `text_as_html`. */
export function partitionBlocks(blocks: readonly Block[], options: FormatPartitionOptions): Element[] {
  return partitionHtmlString(blocksToHtml(blocks), { filename: options.filename, warn: (m) => options.logger.warn(m) });
}
