import type { Element } from '@quarry/core';
import { runChunking } from './chunk-pipeline.js';
import { chunkingOptions, type ChunkingOptionsInput } from './options.js';

/**
 * `chunk_by_character`: `unstructured`'s `basic` strategy. Fills each chunk with whole
 * elements up to `new_after_n_chars` (soft) and `max_characters` (hard, separators counted), splits
 * an element longer than `max_characters`, and keeps every table in chunks of its own.
 *
 * `options` use the library's semantics and defaults; pass `resolveChunkingOptions(...)` output to
 * get a chunker node's defaults.
 *
 * @returns `CompositeElement`, `Table` and `TableChunk` elements with fresh UUID ids (hash ids with
 *   `unique_element_ids: false`).
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for invalid options.
 * @example
 * ```ts
 * const chunks = chunkByCharacter(elements, { max_characters: 1000, overlap: 100 });
 * ```
 */
export function chunkByCharacter(elements: readonly Element[], options: ChunkingOptionsInput = {}): Element[] {
  const opts = chunkingOptions('basic', options);
  return runChunking(elements, opts, { predicates: () => [], combine: false });
}
