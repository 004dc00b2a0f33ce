import { surrogatePairs } from './code-points.js';
import { collapseWhitespace, joinLines } from './python-text.js';

/** An element text's chunk-text segment and the lengths pre-chunking measures, in code points. */
export interface MeasuredText {
  /** The text's contribution to chunk text (see `segmentOf`). */
  readonly segment: string;
  /** Length of the raw text: what the size checks measure. */
  readonly length: number;
  /** Length of `segment`. */
  readonly segmentLength: number;
}

const EMPTY: MeasuredText = { segment: '', length: 0, segmentLength: 0 };

// What takes a text off the fast path: two spaces in a row, Python whitespace other than " " and
// "\n", or a surrogate (an astral character makes code points and code units differ).
const UNUSUAL = / {2}|[\t\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\uD800-\uDFFF]/;

/**
 * An element text's segment (`" ".join(s.split())`, or the text itself when `verbatim`, as for a
 * `CodeSnippet`) and its lengths. Most text holds no whitespace but spaces and line breaks and no
 * astral characters: one test tells, and then lengths are code-unit counts.
 */
export function measureText(text: string, verbatim: boolean): MeasuredText {
  if (!text) return EMPTY;
  const n = text.length;
  if (!UNUSUAL.test(text)) {
    const segment = verbatim ? text : joinLines(text);
    if (segment !== undefined) return { segment, length: n, segmentLength: segment.length };
  }
  // Whitespace is never astral, so the text and its segment hold the same surrogate pairs.
  const pairs = surrogatePairs(text);
  const segment = verbatim ? text : collapseWhitespace(text);
  return { segment, length: n - pairs, segmentLength: segment.length - pairs };
}
