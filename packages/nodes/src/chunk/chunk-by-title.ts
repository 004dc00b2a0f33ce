import type { Element } from '@quarry/core';
import { runChunking } from './chunk-pipeline.js';
import { chunkingOptions, type ChunkingOptionsInput } from './options.js';
import { isTitle, onNextPage, type BoundaryPredicate } from './pre-chunk.js';

/**
 * `chunk_by_title`: `unstructured`'s `by_title` strategy. Like `chunkByCharacter`, but
 * every `Title` starts a section (and, with `multipage_sections: false`, so does every page
 * change); then small consecutive sections are merged while the first is shorter than
 * `combine_text_under_n_chars` and the result fits `max_characters`.
 *
 * @returns `CompositeElement`, `Table` and `TableChunk` elements with fresh UUID ids (hash ids with
 *   `unique_element_ids: false`).
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for invalid options.
 * @example
 * ```ts
 * const chunks = chunkByTitle(elements, { max_characters: 1500, multipage_sections: false });
 * ```
 */
export function chunkByTitle(elements: readonly Element[], options: ChunkingOptionsInput = {}): Element[] {
  const opts = chunkingOptions('by_title', options);
  return runChunking(elements, opts, {
    predicates: (): BoundaryPredicate[] => (opts.multipage_sections ? [isTitle] : [isTitle, onNextPage()]),
    combine: true,
  });
}
