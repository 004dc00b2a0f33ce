import type { Element } from '@quarry/core';
import { assignElementIds } from '@quarry/core/element';
import { PreChunkCombiner } from './combine.js';
import { appendCompositeChunks } from './composite-chunker.js';
import type { ChunkContext } from './context.js';
import { elementTexts } from './element-texts.js';
import type { ChunkingOptions } from './options.js';
import { forEachPreChunk, isTableFamily, type BoundaryPredicate, type PreChunkSink, type PreChunkView } from './pre-chunk.js';
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
export function appendChunksOfPreChunk(preChunk: PreChunkView, ctx: ChunkContext, out: Element[]): void {
  if (preChunk.elementCount === 1) {
    const only = preChunk.source.elements[preChunk.from] as Element;
    if (isTableFamily(only)) {
      for (const chunk of tableChunks(only, preChunk.overlapPrefix, ctx)) out.push(chunk);
      return;
    }
  }
  appendCompositeChunks(preChunk, ctx, out);
}

/**
 * Runs pre-chunking, optional combining and chunk forming over `elements` with resolved options,
 * then gives the chunks hash ids when `unique_element_ids` is false. Lengths are code points, as in
 * the reference library (see `code-points.ts`).
 */
export function runChunking(elements: readonly Element[], opts: ChunkingOptions, plan: ChunkingPlan): Element[] {
  // Each element's text is scanned once, for its segment and its length in code points.
  const texts = elementTexts(elements);
  const former = new ChunkFormer({ opts, splitter: new TextSplitter(opts.max_characters, opts.overlap) });
  if (plan.combine) {
    const combiner = new PreChunkCombiner(opts, former);
    forEachPreChunk(elements, opts, plan.predicates(), texts, combiner);
    combiner.finish();
  } else {
    forEachPreChunk(elements, opts, plan.predicates(), texts, former);
  }
  // The reference hashes chunks made inside a partition call like elements (`apply_metadata` runs
  // after chunking), so their ids are deterministic there too.
  if (!opts.unique_element_ids) assignElementIds(former.out, { unique: false });
  return former.out;
}

// Forms the chunks of each pre-chunk it is handed, in order.
class ChunkFormer implements PreChunkSink {
  readonly out: Element[] = [];

  constructor(private readonly ctx: ChunkContext) {}

  add(preChunk: PreChunkView): void {
    appendChunksOfPreChunk(preChunk, this.ctx, this.out);
  }
}
