/**
 * Drivers that collect what the streaming pre-chunker and combiner hand to their sinks, so tests
 * can look at pre-chunks as lists; the chunkers themselves never materialise them.
 */
import type { Element } from '@quarry/core';
import { PreChunkCombiner } from '../../src/chunk/combine.js';
import { elementTexts } from '../../src/chunk/element-texts.js';
import type { ChunkingOptions } from '../../src/chunk/options.js';
import { forEachPreChunk, type BoundaryPredicate, type PreChunk } from '../../src/chunk/pre-chunk.js';

/** The pre-chunks of `elements` (see `forEachPreChunk`), in order. */
export function preChunks(elements: readonly Element[], opts: ChunkingOptions, predicates: readonly BoundaryPredicate[] = []): PreChunk[] {
  const all: PreChunk[] = [];
  forEachPreChunk(elements, opts, predicates, elementTexts(elements), { add: (pc) => all.push(pc.keep()) });
  return all;
}

/** `PreChunkCombiner` over a list of pre-chunks: the merged pre-chunks, in order. */
export function combinePreChunks(preChunks: readonly PreChunk[], opts: ChunkingOptions): PreChunk[] {
  const all: PreChunk[] = [];
  const combiner = new PreChunkCombiner(opts, { add: (pc) => all.push(pc.keep()) });
  for (const pc of preChunks) combiner.add(pc);
  combiner.finish();
  return all;
}
