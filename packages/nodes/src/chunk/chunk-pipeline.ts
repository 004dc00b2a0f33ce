import type { Element } from '@quarry/core';
import { codecFor } from './code-points.js';
import { combinePreChunks } from './combine.js';
import { compositeChunks } from './composite-chunker.js';
import type { ChunkContext } from './context.js';
import { elementTexts } from './element-texts.js';
import type { ChunkingOptions } from './options.js';
import { isTableFamily, preChunks, type BoundaryPredicate, type PreChunk } from './pre-chunk.js';
import { tableChunks } from './table-chunker.js';
import { TextSplitter } from './text-splitter.js';

/** How a strategy groups elements before chunks are formed. */
export interface ChunkingPlan {
  /** Fresh boundary predicates for one element stream (they may keep state). */
  predicates(): BoundaryPredicate[];
  /** Merge small pre-chunks (by_title). */
  combine: boolean;
}

/** Forms the chunks of one pre-chunk: a lone table goes to the table chunker, the rest become composites. */
export function chunksOfPreChunk(preChunk: PreChunk, ctx: ChunkContext): Element[] {
  const [only] = preChunk.elements;
  if (preChunk.elements.length === 1 && only && isTableFamily(only)) {
    return tableChunks(only, preChunk.overlapPrefix, ctx);
  }
  return compositeChunks(preChunk, ctx);
}

function htmlOf(el: Element): string | undefined {
  const h = el.metadata.text_as_html;
  return typeof h === 'string' ? h : undefined;
}

/**
 * Runs pre-chunking, optional combining and chunk forming over `elements` with resolved options.
 * Lengths are code points, as in the reference library (see `code-points.ts`).
 */
export function runChunking(elements: readonly Element[], opts: ChunkingOptions, plan: ChunkingPlan): Element[] {
  // Each element's text is scanned once, for its segment and for whether the codec must see it.
  const { segments, flagged, looked } = elementTexts(elements);
  const codec = codecFor(looked);
  const back = new Map<Element, Element>();
  let working: readonly Element[] = elements;
  if (!codec.identity) {
    const encoded = elements.slice();
    for (const i of flagged) {
      const el = elements[i] as Element;
      const h = htmlOf(el);
      const copy: Element = { ...el, text: codec.encode(el.text) };
      if (h !== undefined) copy.metadata = { ...el.metadata, text_as_html: codec.encode(h) };
      encoded[i] = copy;
      back.set(copy, el);
      // Astral characters are never whitespace, so encoding commutes with collapsing.
      segments[i] = codec.encode(segments[i] as string);
    }
    working = encoded;
  }
  const original = (el: Element): Element => back.get(el) ?? el;
  const ctx: ChunkContext = {
    opts,
    splitter: new TextSplitter(opts.max_characters, opts.overlap),
    original: back.size === 0 ? (el) => el : original,
    originals: back.size === 0 ? (els) => els : (els) => els.map(original),
  };
  const staged = preChunks(working, opts, plan.predicates(), segments);
  const out: Element[] = [];
  for (const pc of plan.combine ? combinePreChunks(staged, opts) : staged) {
    const chunks = chunksOfPreChunk(pc, ctx);
    // An overlap prefix may carry encoded characters from the previous pre-chunk.
    if (back.size > 0 && (pc.overlapPrefix || pc.elements.some((e) => back.has(e)))) {
      for (const chunk of chunks) {
        chunk.text = codec.decode(chunk.text);
        const h = htmlOf(chunk);
        if (h !== undefined) chunk.metadata = { ...chunk.metadata, text_as_html: codec.decode(h) };
      }
    }
    for (const chunk of chunks) out.push(chunk);
  }
  return out;
}
