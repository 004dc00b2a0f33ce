import diagnostics from 'node:diagnostics_channel';
import type { Element } from '@quarry/core';
import { assignElementIds } from '@quarry/core/element';
import { combinePreChunks } from './combine.js';
import { appendCompositeChunks } from './composite-chunker.js';
import type { ChunkContext } from './context.js';
import type { ChunkingOptions } from './options.js';
import { isTableFamily, preChunks, type BoundaryPredicate, type PreChunk } from './pre-chunk.js';
import { tableChunks } from './table-chunker.js';
import { TextSplitter } from './text-splitter.js';

/**
 * Tracing channel: one message per chunked document, `{ pid, elements, chunks }`, in the process
 * that chunked it (a partition process when the partition node chunked there); free when nobody
 * subscribes.
 */
export const chunkChannel = diagnostics.channel('quarry:chunk');

/** How a strategy groups elements before chunks are formed. */
export interface ChunkingPlan {
  /** Fresh boundary predicates for one element stream (they may keep state). */
  predicates(): BoundaryPredicate[];
  /** Merge small pre-chunks (by_title). */
  combine: boolean;
}

/** Appends to `out` the chunks of one pre-chunk: a lone table goes to the table chunker, the rest become composites. */
export function appendChunksOfPreChunk(preChunk: PreChunk, ctx: ChunkContext, out: Element[]): void {
  const only = preChunk.elements.length === 1 ? (preChunk.elements[0] as Element) : undefined;
  if (only !== undefined && isTableFamily(only)) {
    for (const chunk of tableChunks(only, preChunk.overlapPrefix, ctx)) out.push(chunk);
    return;
  }
  appendCompositeChunks(preChunk, ctx, out);
}

/**
 * Runs pre-chunking, optional combining and chunk forming over `elements` with resolved options,
 * then gives the chunks hash ids when `unique_element_ids` is false. Lengths are code points, as in
 * `unstructured` (see `code-points.ts`).
 */
export function runChunking(elements: readonly Element[], opts: ChunkingOptions, plan: ChunkingPlan): Element[] {
  let staged: Iterable<PreChunk> = preChunks(elements, opts, plan.predicates());
  if (plan.combine) staged = combinePreChunks(staged, opts);
  const ctx: ChunkContext = { opts, splitter: new TextSplitter(opts.max_characters, opts.overlap) };
  const out: Element[] = [];
  for (const preChunk of staged) appendChunksOfPreChunk(preChunk, ctx, out);
  // `unstructured` hashes chunks made inside a partition call like elements (`apply_metadata` runs
  // after chunking), so their ids are deterministic there too.
  if (!opts.unique_element_ids) assignElementIds(out, { unique: false });
  if (chunkChannel.hasSubscribers) chunkChannel.publish({ pid: process.pid, elements: elements.length, chunks: out.length });
  return out;
}
