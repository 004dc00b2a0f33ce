import { BULLET_CLASS } from './text-classify.js';
import { sentTokenize } from './text-tokenize.js';

/**
 * Paragraph grouping of plain text as `unstructured`'s text partitioner does it
 * (`cleaners/core.py::auto_paragraph_grouper`, `partition/text.py::_split_by_paragraph`): lines
 * broken for layout are joined, blocks of short lines stay separate lines, and paragraphs longer
 * than `maxPartition` characters are split at sentence boundaries.
 */

const PARAGRAPH_SPLIT = /\s*\n\s*/u;
const BLANK_LINE_SPLIT = /\s*\n\s*\n\s*/u;
const E_BULLET = /^e(?=\s)/gmu;
const NON_ASCII_BULLET =
  '[\\u0095\\u2022\\u2023\\u2043\\u3164\\u204C\\u204D\\u2219\\u25CB\\u25CF\\u25D8\\u25E6\\u2619\\u2765\\u2767\\u29BE\\u29BF\\uF0B7\\u00B7]';
// Where a new bullet item starts: before a non-ASCII bullet anywhere, or before "-" / "*" at the
// start of a line. `unstructured` also breaks at "-" and "*" inside a line, which cuts "well-known"
// in two.
const BULLET_BREAK = `(?<!${BULLET_CLASS})(?=${NON_ASCII_BULLET})|(?<=\\n[ \\t]*)(?=[-*](?![-*]))`;
const LINE_BREAK_OR_BULLET = new RegExp(`\\s*\\n\\s*|${BULLET_BREAK}`, 'u');
const BULLET_ITEM_SPLIT = new RegExp(BULLET_BREAK, 'u');
const BULLET_START = new RegExp(`^${BULLET_CLASS}(?!${BULLET_CLASS})`, 'u');

/** Lines of the text the grouping is chosen from. */
export const GROUPING_SAMPLE_LINES = 2000;

/** How a text's lines are grouped into paragraphs (see {@link autoParagraphGrouper}). */
export type ParagraphGrouping = 'line' | 'blank-line';

/**
 * The grouping for a text that starts with `sample`, which holds its first
 * {@link GROUPING_SAMPLE_LINES} lines (or all of it): under 10 % blank lines means one paragraph
 * per line, otherwise paragraphs are separated by blank lines.
 */
export function chooseParagraphGrouping(sample: string, wholeText: boolean): ParagraphGrouping {
  const lines = sample.split(/(?<=\n)/u, GROUPING_SAMPLE_LINES);
  // Python's split keeps a final empty piece after a trailing newline; it counts as a blank line.
  if (wholeText && sample.endsWith('\n') && lines.length < GROUPING_SAMPLE_LINES) lines.push('');
  const empty = lines.filter((l) => !l.trim()).length;
  const ratio = lines.length ? empty / lines.length : 0;
  return ratio < 0.1 ? 'line' : 'blank-line';
}

/**
 * Groups text by `grouping`: one paragraph per non-blank line, or paragraphs separated by blank
 * lines whose lines are joined. Paragraphs in the result are separated by `"\n\n"`. Text cut
 * after a line feed (`line`) or before the first non-space character after a blank line
 * (`blank-line`) groups piece by piece as it does whole.
 */
export function groupParagraphs(text: string, grouping: ParagraphGrouping): string {
  return grouping === 'line' ? newLineGrouper(text) : groupBrokenParagraphs(text);
}

/**
 * Chooses the grouping from the share of blank lines among the first 2000 lines (see
 * {@link chooseParagraphGrouping}) and groups the text with it.
 */
export function autoParagraphGrouper(text: string): string {
  return groupParagraphs(text, chooseParagraphGrouping(text, true));
}

function newLineGrouper(text: string): string {
  return text
    .split(/(?<=\n)/u)
    .filter((l) => l.trim())
    .join('\n\n');
}

/** Joins lines broken for layout; keeps blocks of short lines (fewer than 5 words each) as lines. */
export function groupBrokenParagraphs(text: string): string {
  const out: string[] = [];
  for (const paragraph of text.split(BLANK_LINE_SPLIT)) {
    if (!paragraph.trim()) continue;
    const stripped = paragraph.trim();
    if (BULLET_START.test(stripped) || /^e(?=\s)/u.test(stripped)) {
      out.push(...groupBulletParagraph(paragraph));
      continue;
    }
    const lines = paragraph.split(LINE_BREAK_OR_BULLET);
    const allLinesShort = lines.every((l) => l.trim().split(' ').length < 5);
    if (allLinesShort) out.push(...lines.filter((l) => l.trim()).map((l) => l.trim()));
    else out.push(paragraph.replace(/\s*\n\s*/gu, ' '));
  }
  return out.join('\n\n');
}

// Splits a paragraph that starts with a bullet into one paragraph per bullet, joining the lines
// of each. OCR turns some bullets into a stand-alone "e", which counts as a bullet.
function groupBulletParagraph(paragraph: string): string[] {
  const p = paragraph.replace(E_BULLET, '·').trim();
  const items = p.split(BULLET_ITEM_SPLIT);
  return items.filter((b) => b.trim()).map((b) => b.replace(/\s*\n\s*/gu, ' ').trim());
}

/**
 * Splits grouped text into paragraphs (one per line) no longer than `maxPartition` characters,
 * cutting long ones between sentences (or between words for an over-long sentence).
 */
export function splitByParagraph(text: string, maxPartition = 1500): string[] {
  const out: string[] = [];
  for (const paragraph of text.trim().split(PARAGRAPH_SPLIT)) out.push(...splitToFitMax(paragraph, maxPartition));
  return out;
}

function splitToFitMax(content: string, max: number): string[] {
  const chunks: string[] = [];
  let tmp = '';
  for (const sentence of sentTokenize(content)) {
    if (sentence.length > max) {
      if (tmp) chunks.push(tmp);
      const segments = splitSizeN(sentence, max);
      chunks.push(...segments.slice(0, -1));
      tmp = segments[segments.length - 1] ?? '';
    } else if (`${tmp} ${sentence}`.length > max) {
      chunks.push(tmp);
      tmp = sentence;
    } else tmp = tmp ? `${tmp} ${sentence}`.trim() : sentence;
  }
  if (tmp) chunks.push(tmp);
  return chunks;
}

function splitSizeN(content: string, n: number): string[] {
  if (content.length < n * 2) return splitInHalf(content);
  return wrap(content, n);
}

// Splits at the space closest to the middle.
function splitInHalf(content: string): string[] {
  let mid = Math.floor(content.length / 2);
  for (let i = 0; i < Math.floor(content.length / 2); i++) {
    if (content[mid + i] === ' ') {
      mid += i;
      break;
    }
    if (content[mid - i] === ' ') {
      mid -= i;
      break;
    }
  }
  return [content.slice(0, mid).trimEnd(), content.slice(mid).trimStart()];
}

// Python's textwrap.wrap: greedy lines of at most `width` characters, words longer than `width`
// broken.
function wrap(content: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of content.split(/\s+/u).filter(Boolean)) {
    while (word.length > width) {
      if (line) {
        lines.push(line);
        line = '';
      }
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
