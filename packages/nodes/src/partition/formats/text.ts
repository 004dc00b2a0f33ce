import type { Element } from '@quarry/core';
import { chooseParagraphGrouping, GROUPING_SAMPLE_LINES, groupParagraphs, splitByParagraph, type ParagraphGrouping } from '../paragraph-grouping.js';
import { classifyText, isEmptyBullet } from '../text-classify.js';
import { limitError, partitionLimits } from '../limits.js';
import type { FormatPartitioner } from '../types.js';
import { decodeTextChunks } from './shared/decode-text.js';
import { assertLineBytes } from './shared/line-bytes.js';
import { newElement } from './shared/new-element.js';

// The grouping is chosen from the first lines; a text whose first lines are this long (over
// 32 KB a line on average) is not held back further to see them all.
const MAX_SAMPLE_CHARS = 64 * 2 ** 20;
const WHITESPACE = /\s/u;

/**
 * Partitions plain text the way `unstructured`'s `partition_text` does: lines broken for layout are
 * grouped into paragraphs, paragraphs over 1500 characters are split between sentences, and each
 * paragraph is classified (NarrativeText, Title, ListItem, Address, EmailAddress or
 * UncategorizedText).
 */
export function partitionPlainText(text: string): Element[] {
  return partitionPlainTextChunks([text]);
}

/**
 * {@link partitionPlainText} of the text the chunks make up, read a piece at a time: each piece is
 * grouped and split as soon as it ends where a paragraph may (a line feed, or a blank line once
 * paragraphs are separated by blank lines), so only the elements grow with the text.
 */
export function partitionPlainTextChunks(chunks: Iterable<string>): Element[] {
  const elements: Element[] = [];
  let grouping: ParagraphGrouping | undefined;
  let pending = '';
  // A CR at the end of a chunk may be the first half of a CRLF.
  let heldCr = false;
  const emit = (segment: string, g: ParagraphGrouping): void => {
    // Runs of over 100 spaces or tabs are layout padding; capping them keeps the line-splitting
    // regular expressions linear on pathological input.
    const normalized = segment.replace(/[^\S\n]{101,}/gu, ' ');
    if (!normalized.trim()) return;
    for (const paragraph of splitByParagraph(groupParagraphs(normalized, g))) {
      const ctext = paragraph.trim();
      if (!ctext || isEmptyBullet(ctext)) continue;
      const c = classifyText(ctext);
      elements.push(newElement(c.type, c.text));
    }
  };
  for (const chunk of chunks) {
    let text: string = heldCr ? `\r${chunk}` : chunk;
    heldCr = text.endsWith('\r');
    if (heldCr) text = text.slice(0, -1);
    pending += text.replace(/\r\n?/gu, '\n');
    grouping ??= sampleComplete(pending) ? chooseParagraphGrouping(pending, false) : undefined;
    if (!grouping) continue;
    const cut = grouping === 'line' ? pending.lastIndexOf('\n') + 1 : lastParagraphStart(pending);
    if (cut <= 0) continue;
    emit(pending.slice(0, cut), grouping);
    pending = pending.slice(cut);
  }
  if (heldCr) pending += '\n';
  emit(pending, grouping ?? chooseParagraphGrouping(pending, true));
  return elements;
}

/** Whether `text` holds the lines the grouping is chosen from. */
function sampleComplete(text: string): boolean {
  if (text.length >= MAX_SAMPLE_CHARS) return true;
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) if (++lines >= GROUPING_SAMPLE_LINES) return true;
  return false;
}

/**
 * The index of the last non-space character that follows a run of spaces holding two line feeds
 * (a blank line), or -1. Searched from the end, so usually only the last paragraph is read.
 */
function lastParagraphStart(text: string): number {
  for (let p = text.length - 1; p > 0; p--) {
    if (WHITESPACE.test(text[p]!)) continue;
    let q = p - 1;
    let newlines = 0;
    for (; q >= 0 && WHITESPACE.test(text[q]!); q--) if (text[q] === '\n') newlines++;
    if (newlines >= 2) return p;
    p = q + 1;
  }
  return -1;
}

/**
 * Plain text (`text/plain`, also source-code and log files) in any encoding iconv-lite knows; a
 * byte-order mark wins over the `encoding` setting. The file is decoded and partitioned a few MB
 * at a time; a file over `QUARRY_MAX_TEXT_BYTES`, or with a line over `QUARRY_MAX_LINE_BYTES`,
 * fails with `FILE_TOO_LARGE`.
 */
export const textPartitioner: FormatPartitioner = {
  partition: (bytes, options) => {
    assertLineBytes(bytes, options.filename);
    const limits = partitionLimits();
    if (bytes.byteLength > limits.maxTextBytes) throw limitError('FILE_TOO_LARGE', 'maxTextBytes', options.filename, bytes.byteLength, limits);
    return partitionPlainTextChunks(decodeTextChunks(bytes, options.encoding));
  },
};
