import type { ChunkingOptions } from './options.js';
import type { PreChunk } from './pre-chunk.js';

/**
 * Merges small consecutive pre-chunks (the library's `PreChunkCombiner`, by_title only): the
 * accumulated pre-chunk takes the next one while it is shorter than `combine_text_under_n_chars`
 * and the merge fits `max_characters`; tables are never merged when `isolate_table` is on. With
 * the default threshold (= `max_characters`) small sections are merged across titles;
 * `combine_text_under_n_chars: 0` turns merging off.
 */
export function* combinePreChunks(preChunks: Iterable<PreChunk>, opts: ChunkingOptions): Generator<PreChunk> {
  let acc: PreChunk | undefined;
  for (const next of preChunks) {
    if (acc === undefined) acc = next;
    else if (acc.canCombine(next, opts)) acc = acc.combine(next);
    else {
      yield acc;
      acc = next;
    }
  }
  if (acc !== undefined) yield acc;
}
