import type { Element } from '@quarry/core';
import { chunkByCharacter, chunkByPage, chunkBySimilarity, chunkByTitle, chunkingOptions, type ChunkingOptionsInput, type PooledChunking } from '@quarry/nodes';
import type { LegacyForm } from './form-params.js';

/** Chunking strategies of the legacy endpoint: the library's `basic` and `by_title`, and the Unstructured API's `by_page` and `by_similarity`. */
export const LEGACY_CHUNKING_STRATEGIES = ['basic', 'by_title', 'by_page', 'by_similarity'] as const;

/** A legacy chunking strategy. */
export type LegacyChunkingStrategy = (typeof LEGACY_CHUNKING_STRATEGIES)[number];

/** Embeds texts for `by_similarity`; one vector per text, in order. */
export type LegacyEmbed = (texts: string[], signal: AbortSignal) => Promise<number[][]>;

/**
 * Chunks one file's elements as the form asks (`chunking_strategy` must be one of
 * {@link LEGACY_CHUNKING_STRATEGIES}). Chunks get hash ids unless `unique_element_ids` is true: the
 * Unstructured API chunks inside its partition call, which hashes what it returns.
 *
 * @param embed the server's embedder; required for `by_similarity` (the caller answers 422 without one).
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for invalid options.
 */
export async function chunkElements(elements: Element[], form: LegacyForm, embed: LegacyEmbed | undefined, signal: AbortSignal): Promise<Element[]> {
  const options = commonOptions(form);
  switch (form.chunking_strategy?.toLowerCase() as LegacyChunkingStrategy) {
    case 'by_title':
      return chunkByTitle(elements, titleOptions(form));
    case 'by_page':
      return chunkByPage(elements, options);
    case 'by_similarity':
      if (!embed) throw new Error('by_similarity needs an embedder');
      return chunkBySimilarity(elements, {
        ...options,
        similarity_threshold: form.similarity_threshold ?? null,
        do_not_break_similarity_on_footer_header: form.do_not_break_similarity_on_footer_header ?? false,
        embed: (texts) => embed(texts, signal),
      });
    default:
      return chunkByCharacter(elements, options);
  }
}

/**
 * The chunking a partition process can do right after partitioning (every strategy but
 * `by_similarity`, which calls the server's embedder), with its options checked here: the server's
 * event loop then never runs the chunking.
 *
 * @throws QuarryError `CHUNKING_OPTIONS_INVALID` for invalid options.
 */
export function pooledChunking(form: LegacyForm): PooledChunking | undefined {
  switch (form.chunking_strategy?.toLowerCase() as LegacyChunkingStrategy | undefined) {
    case undefined:
    case 'by_similarity':
      return undefined;
    case 'by_title':
      return { subtype: 'chunk_by_title', options: chunkingOptions('by_title', titleOptions(form)) };
    case 'by_page':
      return { subtype: 'chunk_by_page', options: chunkingOptions('basic', commonOptions(form)) };
    default:
      return { subtype: 'chunk_by_character', options: chunkingOptions('basic', commonOptions(form)) };
  }
}

function commonOptions(form: LegacyForm): ChunkingOptionsInput {
  return {
    max_characters: form.max_characters ?? 500,
    new_after_n_chars: form.new_after_n_chars ?? null,
    overlap: form.overlap ?? 0,
    overlap_all: form.overlap_all ?? false,
    include_orig_elements: form.include_orig_elements ?? null,
    unique_element_ids: form.unique_element_ids ?? false,
  };
}

function titleOptions(form: LegacyForm): ChunkingOptionsInput {
  return { ...commonOptions(form), multipage_sections: form.multipage_sections ?? true, combine_text_under_n_chars: form.combine_under_n_chars ?? null };
}
