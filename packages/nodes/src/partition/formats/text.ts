import type { Element } from '@quarry/core';
import { autoParagraphGrouper, splitByParagraph } from '../paragraph-grouping.js';
import { classifyText, isEmptyBullet } from '../text-classify.js';
import type { FormatPartitioner } from '../types.js';
import { decodeText } from './decode-text.js';
import { newElement } from './new-element.js';

/**
 * Partitions plain text the way the reference's `partition_text` does: lines broken for layout are
 * grouped into paragraphs, paragraphs over 1500 characters are split between sentences, and each
 * paragraph is classified (NarrativeText, Title, ListItem, Address, EmailAddress or
 * UncategorizedText).
 */
export function partitionPlainText(text: string): Element[] {
  // Runs of over 100 spaces or tabs are layout padding; capping them keeps the line-splitting
  // regular expressions linear on pathological input.
  const normalized = text.replace(/\r\n?/gu, '\n').replace(/[^\S\n]{101,}/gu, ' ');
  if (!normalized.trim()) return [];
  const elements: Element[] = [];
  for (const paragraph of splitByParagraph(autoParagraphGrouper(normalized))) {
    const ctext = paragraph.trim();
    if (!ctext || isEmptyBullet(ctext)) continue;
    const c = classifyText(ctext);
    elements.push(newElement(c.type, c.text));
  }
  return elements;
}

/**
 * Plain text (`text/plain`, also source-code and log files) in any encoding iconv-lite knows; a
 * byte-order mark wins over the `encoding` setting.
 */
export const textPartitioner: FormatPartitioner = {
  partition: (bytes, options) => partitionPlainText(decodeText(bytes, options.encoding)),
};
