import type { Element } from '@quarry/core';
import { needsCodecLook } from './code-points.js';
import { collapseWhitespace } from './python-text.js';

// What keeps a text off the fast path: whitespace other than a space or a newline, two of those
// in a row, or a character the code-point codec cares about (surrogates, private-use characters,
// BMP noncharacters). A superset is harmless (the slow path is exact), so neighbouring ranges are
// merged (U+202A-U+202E join U+2028-U+202F; surrogates join the private-use area): fewer ranges,
// faster scan.
const NOT_PLAIN = /[\t\v\f\r\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028-\u202f\u205f\u3000\uD800-\uF8FF\uFDD0-\uFDEF]|[ \n]{2}/;

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
 * `undefined`. Partitioner output mostly has words separated by single spaces or single line
 * breaks; that shape is recognised with one native scan and collapsed with one native replace.
 */
function plainSegment(text: string): string | undefined {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  if (first === 0x20 || first === 0x0a || last === 0x20 || last === 0x0a || NOT_PLAIN.test(text)) return undefined;
  return text.includes('\n') ? text.replaceAll('\n', ' ') : text;
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
