import type { Element } from '@quarry/core';
import { codecFor, type TextCodec } from './code-points.js';
import { PreChunkCombiner } from './combine.js';
import { appendCompositeChunks } from './composite-chunker.js';
import type { ChunkContext } from './context.js';
import { elementTexts } from './element-texts.js';
import type { ChunkingOptions } from './options.js';
import { forEachPreChunk, isTableFamily, type BoundaryPredicate, type PreChunk } from './pre-chunk.js';
import { tableChunks } from './table-chunker.js';
import { TextSplitter } from './text-splitter.js';

/** How a strategy groups elements before chunks are formed. */
export interface ChunkingPlan {
  /** Fresh boundary predicates for one element stream (they may keep state). */
  predicates(): BoundaryPredicate[];
  /** Merge small pre-chunks (by_title). */
  combine: boolean;
}

/** Appends to `out` the chunks of one pre-chunk: a lone table goes to the table chunker, the rest become composites. */
export function appendChunksOfPreChunk(preChunk: PreChunk, ctx: ChunkContext, out: Element[]): void {
  const { elements } = preChunk;
  if (elements.length === 1 && isTableFamily(elements[0] as Element)) {
    for (const chunk of tableChunks(elements[0] as Element, preChunk.overlapPrefix, ctx)) out.push(chunk);
    return;
  }
  appendCompositeChunks(preChunk, ctx, out);
}

/** Forms the chunks of one pre-chunk (see {@link appendChunksOfPreChunk}). */
export function chunksOfPreChunk(preChunk: PreChunk, ctx: ChunkContext): Element[] {
  const out: Element[] = [];
  appendChunksOfPreChunk(preChunk, ctx, out);
  return out;
}

function htmlOf(el: Element): string | undefined {
  const h = el.metadata.text_as_html;
  return typeof h === 'string' ? h : undefined;
}

function decodeChunk(chunk: Element, codec: TextCodec): void {
  chunk.text = codec.decode(chunk.text);
  const h = htmlOf(chunk);
  if (h !== undefined) chunk.metadata = { ...chunk.metadata, text_as_html: codec.decode(h) };
}

/**
 * Runs pre-chunking, optional combining and chunk forming over `elements` with resolved options.
 * Lengths are code points, as in the reference library (see `code-points.ts`).
 */
export function runChunking(elements: readonly Element[], opts: ChunkingOptions, plan: ChunkingPlan): Element[] {
  // Each element's text is scanned once, for its segment and for whether the codec must see it.
  const texts = elementTexts(elements);
  const { segments, lengths, flagged, flaggedPlain, looked } = texts;
  const codec = codecFor(looked);
  // Working copies of the elements whose text the codec re-encoded, mapped to the caller's elements.
  let back: Map<Element, Element> | undefined;
  let working: readonly Element[] = elements;
  if (!codec.identity) {
    back = new Map();
    const copies = elements.slice();
    for (let f = 0; f < flagged.length; f++) {
      const i = flagged[f] as number;
      const el = elements[i] as Element;
      const h = htmlOf(el);
      const text = codec.encode(el.text);
      const copy: Element = { ...el, text };
      if (h !== undefined) copy.metadata = { ...el.metadata, text_as_html: codec.encode(h) };
      copies[i] = copy;
      back.set(copy, el);
      // Astral characters are never whitespace, so encoding commutes with collapsing; a segment
      // from the fast path is the text with its line breaks made spaces, whatever the encoding.
      segments[i] = flaggedPlain[f] ? text.replaceAll('\n', ' ') : codec.encode(segments[i] as string);
      lengths[i] = text.length;
    }
    working = copies;
  }
  const original = back;
  const ctx: ChunkContext = {
    opts,
    splitter: new TextSplitter(opts.max_characters, opts.overlap),
    original: original === undefined ? (el) => el : (el) => original.get(el) ?? el,
    originals: original === undefined ? (els) => els : (els) => els.map((el) => original.get(el) ?? el),
  };
  const out: Element[] = [];
  let emit = (pc: PreChunk): void => appendChunksOfPreChunk(pc, ctx, out);
  if (!codec.identity) {
    // Pre-chunks partition the elements in order, so the next one starts where the last ended,
    // and the re-encoded elements (`flagged`, ascending) are met in order too.
    let next = 0;
    let f = 0;
    emit = (pc) => {
      const from = out.length;
      next += pc.elements.length;
      let encoded = false;
      for (; f < flagged.length && (flagged[f] as number) < next; f++) encoded = true;
      appendChunksOfPreChunk(pc, ctx, out);
      // An overlap prefix may carry encoded characters from the previous pre-chunk.
      if (pc.overlapPrefix || encoded) {
        for (let i = from; i < out.length; i++) decodeChunk(out[i] as Element, codec);
      }
    };
  }
  if (plan.combine) {
    const combiner = new PreChunkCombiner(opts, emit);
    forEachPreChunk(working, opts, plan.predicates(), texts, (pc) => combiner.add(pc));
    combiner.finish();
  } else {
    forEachPreChunk(working, opts, plan.predicates(), texts, emit);
  }
  return out;
}
