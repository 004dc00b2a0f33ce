import type { Element } from '@quarry/core';
import { codecFor, needsCodecLook } from './code-points.js';
import { combinePreChunks } from './combine.js';
import { compositeChunks } from './composite-chunker.js';
import type { ChunkContext } from './context.js';
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
  // Only texts with surrogates or private-use characters take part in the codec (one native scan each).
  const flagged: Element[] = [];
  const looked: string[] = [];
  for (const el of elements) {
    const h = htmlOf(el);
    const textLook = needsCodecLook(el.text);
    const htmlLook = h !== undefined && needsCodecLook(h);
    if (textLook) looked.push(el.text);
    if (htmlLook) looked.push(h);
    if (textLook || htmlLook) flagged.push(el);
  }
  const codec = codecFor(looked);
  const back = new Map<Element, Element>();
  let working: readonly Element[] = elements;
  if (!codec.identity) {
    const encoded = new Map<Element, Element>();
    for (const el of flagged) {
      const h = htmlOf(el);
      const copy: Element = { ...el, text: codec.encode(el.text) };
      if (h !== undefined) copy.metadata = { ...el.metadata, text_as_html: codec.encode(h) };
      encoded.set(el, copy);
      back.set(copy, el);
    }
    working = elements.map((el) => encoded.get(el) ?? el);
  }
  const original = back.size === 0 ? (el: Element): Element => el : (el: Element): Element => back.get(el) ?? el;

  const ctx: ChunkContext = { opts, splitter: new TextSplitter(opts.max_characters, opts.overlap), original };
  const staged = preChunks(working, opts, plan.predicates());
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
