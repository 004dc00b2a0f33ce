import type { Element } from '@quarry/core';
import { needsCodecLook } from './code-points.js';
import { collapseWhitespace } from './python-text.js';

// What keeps a text (its newlines already turned into spaces) off the fast path: whitespace other
// than a space, two whitespace characters in a row, or a character the code-point codec cares
// about (surrogates, private-use characters, BMP noncharacters).
const NOT_PLAIN = /[\t\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\uD800-\uDFFF\uE000-\uF8FF\uFDD0-\uFDEF]| {2}/;

/** What a chunking run needs from its elements' texts, computed once per element. */
export interface ElementTexts {
  /** `segmentOf(elements[i])`: the element's contribution to chunk text. */
  segments: string[];
  /** Indexes of the elements whose text or `text_as_html` the code-point codec must see. */
  flagged: number[];
  /** Those texts and HTML strings, for `codecFor`. */
  looked: string[];
}

/**
 * The whitespace-collapsed segment of a text when it holds no codec-relevant character, else
 * `undefined`. Handles the common shape of partitioner output (words separated by single spaces or
 * single line breaks) with one native replace and one native scan.
 */
function plainSegment(text: string): string | undefined {
  const t = text.includes('\n') ? text.replaceAll('\n', ' ') : text;
  if (t.charCodeAt(0) === 0x20 || t.charCodeAt(t.length - 1) === 0x20 || NOT_PLAIN.test(t)) return undefined;
  return t;
}

/**
 * Computes every element's chunk-text segment (see `segmentOf`) and finds the texts that need the
 * code-point codec, looking at each text once: the whitespace check and the codec check share one
 * scan on the fast path.
 */
export function elementTexts(elements: readonly Element[]): ElementTexts {
  const n = elements.length;
  const segments = new Array<string>(n);
  const flagged: number[] = [];
  const looked: string[] = [];
  for (let i = 0; i < n; i++) {
    const el = elements[i] as Element;
    const text = el.text;
    let segment = '';
    let textLook = false;
    if (text) {
      if (el.type === 'CodeSnippet') {
        segment = text;
        textLook = needsCodecLook(text);
      } else {
        const plain = plainSegment(text);
        if (plain === undefined) {
          segment = collapseWhitespace(text);
          textLook = needsCodecLook(text);
        } else {
          segment = plain;
        }
      }
    }
    segments[i] = segment;
    const html = el.metadata.text_as_html;
    const htmlLook = typeof html === 'string' && needsCodecLook(html);
    if (textLook) looked.push(text);
    if (htmlLook) looked.push(html);
    if (textLook || htmlLook) flagged.push(i);
  }
  return { segments, flagged, looked };
}
