import type { Element } from '@quarry/core';
import { runChunking } from './chunk-pipeline.js';
import { chunkingOptions, type ChunkingOptionsInput } from './options.js';
import { onNextPage } from './pre-chunk.js';

/**
 * `chunk_by_page` (a platform-only strategy): `chunkByCharacter` where a page change
 * always closes the chunk, so content of different pages never shares a chunk. An element without
 * `page_number` stays on the current page. No combining, no `multipage_sections`.
 *
 * @returns `CompositeElement`, `Table` and `TableChunk` elements with fresh UUID ids (hash ids with
 *   `unique_element_ids: false`).
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for invalid options.
 * @example
 * ```ts
 * const chunks = chunkByPage(elements, { max_characters: 2000 });
 * ```
 */
export function chunkByPage(elements: readonly Element[], options: ChunkingOptionsInput = {}): Element[] {
  const opts = chunkingOptions('basic', options);
  return runChunking(elements, opts, { predicates: () => [onNextPage()], combine: false });
}
