import type { Element } from '@quarry/core';
import { needsCodecLook } from './code-points.js';
import { isTableFamily, type PreChunkTexts } from './pre-chunk.js';
import { collapseWhitespace } from './python-text.js';
import { CODEC_FLAG, lastNewlines, newlineCount, scanPlain, spliceSpaces } from './text-scan.js';

/** What a chunking run needs from its elements' texts, computed once per element. */
export interface ElementTexts extends PreChunkTexts {
  /** `segmentOf(elements[i])`: the element's contribution to chunk text. */
  readonly segments: string[];
  /** Indexes of the elements whose text or `text_as_html` the code-point codec must see. */
  flagged: number[];
  /**
   * For each flagged element: true when its segment is its text with line breaks turned into
   * spaces (the fast path), so the segment of its re-encoded text can be made the same way.
   */
  flaggedPlain: boolean[];
  /** Those texts and HTML strings, for `codecFor`. */
  looked: string[];
}

/**
 * Computes every element's chunk-text segment (see `segmentOf`) and finds the texts that need the
 * code-point codec, looking at each text once: the whitespace check and the codec check share one
 * scan on the fast path (see `text-scan.ts`).
 */
export function elementTexts(elements: readonly Element[]): ElementTexts {
  const n = elements.length;
  const segments = new Array<string>(n);
  const lengths = new Int32Array(n);
  const tables = new Uint8Array(n);
  const flagged: number[] = [];
  const flaggedPlain: boolean[] = [];
  const looked: string[] = [];
  for (let i = 0; i < n; i++) {
    const el = elements[i] as Element;
    const text = el.text;
    let segment = '';
    let textLook = false;
    let plain = false;
    if (isTableFamily(el)) tables[i] = 1;
    if (!text) {
      // No text: no segment, and nothing for the codec.
    } else if (el.type === 'CodeSnippet') {
      segment = text;
      textLook = needsCodecLook(text);
    } else {
      const scan = scanPlain(text);
      if (scan < 0) {
        segment = collapseWhitespace(text);
        textLook = needsCodecLook(text);
      } else {
        const count = newlineCount(scan);
        segment = count === 0 ? text : spliceSpaces(text, lastNewlines(), 0, count);
        textLook = (scan & CODEC_FLAG) !== 0;
        plain = true;
      }
    }
    segments[i] = segment;
    if (text) lengths[i] = text.length;
    const html = el.metadata.text_as_html;
    const htmlLook = typeof html === 'string' && needsCodecLook(html);
    if (textLook) looked.push(text);
    if (htmlLook) looked.push(html);
    if (textLook || htmlLook) {
      flagged.push(i);
      flaggedPlain.push(plain);
    }
  }
  return { segments, lengths, tables, flagged, flaggedPlain, looked };
}
