import type { Element } from '@quarry/core';
import { chunkByCharacterNode } from '../chunk/chunk-by-character.node.js';
import { chunkByPageNode } from '../chunk/chunk-by-page.node.js';
import { chunkBySimilarityNode, type ChunkBySimilarityNodeSettings } from '../chunk/chunk-by-similarity.node.js';
import { chunkByTitleNode } from '../chunk/chunk-by-title.node.js';
import type { ChunkerNodeSettings, ChunkerSubtype } from '../chunk/options.js';
import { runNodeOnce, type HelperCallOptions } from './run-node.js';

/** The settings of each chunker, by subtype: the names of the workflow's chunk node. */
export interface ChunkSettingsOf {
  chunk_by_character: Omit<ChunkerNodeSettings, 'multipage_sections' | 'combine_text_under_n_chars' | 'similarity_threshold'>;
  chunk_by_title: Omit<ChunkerNodeSettings, 'similarity_threshold'>;
  chunk_by_page: Omit<ChunkerNodeSettings, 'multipage_sections' | 'combine_text_under_n_chars' | 'similarity_threshold'>;
  chunk_by_similarity: Omit<ChunkBySimilarityNodeSettings, 'multipage_sections' | 'combine_text_under_n_chars'>;
}

const CHUNKERS = {
  chunk_by_character: chunkByCharacterNode,
  chunk_by_title: chunkByTitleNode,
  chunk_by_page: chunkByPageNode,
  chunk_by_similarity: chunkBySimilarityNode,
} as const;

/**
 * Chunks one document's elements with a workflow chunker: the one-call form of the `chunk` node,
 * with the same settings (`max_characters`, `new_after_n_chars`, `overlap`, `combine_text_under_n_chars`,
 * ...; `chunk_by_similarity` needs `embedding`, e.g. `{ subtype: 'local', model_path }`). Settings
 * are checked as in a workflow: `SETTINGS_INVALID` names each bad one.
 *
 * @example
 * ```ts
 * const chunks = await chunk(elements, 'chunk_by_title', { max_characters: 1000, overlap: 100 });
 * ```
 */
export function chunk<S extends ChunkerSubtype>(elements: Element[], subtype: S, settings: ChunkSettingsOf[S] = {}, options: HelperCallOptions = {}): Promise<Element[]> {
  const definition = CHUNKERS[subtype] as typeof chunkByTitleNode;
  const first = elements[0]?.metadata.filename ?? 'elements';
  const document = { record_id: first, filename: first, data_source: {}, read: async () => new Uint8Array() };
  return runNodeOnce(definition, { ...settings }, { document, elements }, options);
}
