import type { Element } from '@quarry/core';
import { surrogatePairs } from './code-points.js';
import { isTableFamily, type PreChunkTexts } from './pre-chunk.js';
import { collapseWhitespace } from './python-text.js';
import { SURROGATE_FLAG, lastNewlines, newlineCount, scanPlain, spliceSpaces } from './text-scan.js';

/** What a chunking run needs from its elements' texts, computed once per element. */
export interface ElementTexts extends PreChunkTexts {
  /** `segmentOf(elements[i])`: the element's contribution to chunk text. */
  readonly segments: string[];
}

/**
 * Computes every element's chunk-text segment (see `segmentOf`) and its length in code points,
 * looking at each text once: the whitespace check and the check for surrogates share one scan on
 * the fast path (see `text-scan.ts`); only a text holding surrogates is looked at again, to count
 * its pairs.
 */
export function elementTexts(elements: readonly Element[]): ElementTexts {
  const n = elements.length;
  const segments = new Array<string>(n);
  const lengths = new Int32Array(n);
  const tables = new Uint8Array(n);
  const pairs = scanElements(elements, segments, lengths, tables);
  return { segments, lengths, tables, pairs };
}

// Fills the arrays (see ElementTexts) and returns the surrogate pairs of each element's text,
// `undefined` when no text has any. The loop is a function of its own that needs nothing after
// it: V8 compiles a long-running loop on the stack (OSR) and caches that code, and an object
// literal built after the loop, with no type feedback when the loop was compiled, made every
// later call bail out there.
function scanElements(elements: readonly Element[], segments: string[], lengths: Int32Array, tables: Uint8Array): Int32Array | undefined {
  const n = elements.length;
  let pairs: Int32Array | undefined;
  for (let i = 0; i < n; i++) {
    const el = elements[i] as Element;
    const text = el.text;
    let segment = '';
    // Surrogate pairs of the text, when it may hold any.
    let astral = 0;
    if (isTableFamily(el)) tables[i] = 1;
    if (!text) {
      // No text: no segment, and nothing to count.
    } else if (el.type === 'CodeSnippet') {
      segment = text;
      astral = surrogatePairs(text);
    } else {
      const scan = scanPlain(text);
      if (scan < 0) {
        segment = collapseWhitespace(text);
        astral = surrogatePairs(text);
      } else {
        const count = newlineCount(scan);
        segment = count === 0 ? text : spliceSpaces(text, lastNewlines(), 0, count);
        if (scan & SURROGATE_FLAG) astral = surrogatePairs(text);
      }
    }
    segments[i] = segment;
    if (text) lengths[i] = text.length - astral;
    if (astral > 0) (pairs ??= new Int32Array(n))[i] = astral;
  }
  return pairs;
}
