/**
 * Chunkers: group a document's elements into `CompositeElement`, `Table` and `TableChunk` chunks
 * with `unstructured`'s semantics (`basic` = chunk_by_character, `by_title`), plus the
 * platform's chunk_by_page and chunk_by_similarity.
 */
export { chunkByCharacter } from './chunk-by-character.js';
export { chunkByTitle } from './chunk-by-title.js';
export { chunkByPage } from './chunk-by-page.js';
export { chunkBySimilarity, cosineSimilarity, type EmbedTexts, type SimilarityChunkingInput } from './chunk-by-similarity.js';
export { reconstructTableFromChunks } from './reconstruct-table.js';
export {
  CHUNKING_OPTIONS_INVALID,
  CHUNK_MAX_CHARS_DEFAULT,
  SIMILARITY_THRESHOLD_DEFAULT,
  chunkingOptions,
  resolveChunkingOptions,
  similarityThreshold,
  type ChunkerNodeSettings,
  type ChunkingOptions,
  type ChunkingOptionsInput,
  type LibraryChunkingStrategy,
  type SimilarityChunkingOptions,
} from './options.js';
export {
  DROPPED_FIELDS,
  FIELD_CONSOLIDATION_STRATEGIES,
  consolidateMetadata,
  type ConsolidationStrategy,
} from './consolidate-metadata.js';
export { TextSplitter } from './text-splitter.js';
export { parseHtmlTable, type HtmlCell, type HtmlRow, type HtmlTable } from './html-table.js';
export { chunkCommonShape, chunkMaxCharacters, chunkerSettings } from './chunk-settings.js';
export { chunkByCharacterNode, chunkByCharacterSettings, type ChunkByCharacterSettings } from './chunk-by-character.node.js';
export { chunkByTitleNode, chunkByTitleSettings, type ChunkByTitleSettings } from './chunk-by-title.node.js';
export { chunkByPageNode, chunkByPageSettings, type ChunkByPageSettings } from './chunk-by-page.node.js';
export { chunkBySimilarityNode, chunkBySimilarityNodeSettings, type ChunkBySimilarityNodeSettings } from './chunk-by-similarity.node.js';
export {
  CONTEXTUAL_CHUNKING_SERVICE,
  CONTEXTUAL_DEFAULT,
  CONTEXTUAL_CONCURRENCY,
  CONTEXTUAL_MAX_DOCUMENT_CHARS,
  contextualConfig,
  contextualLlm,
  contextualizeChunks,
  type ContextualChunkingConfig,
  type ContextualizeOptions,
} from './contextual.js';
export { createSimilarityEmbedder, embeddingRef, type EmbeddingRef, type SimilarityEmbedder } from './similarity-embedder.js';
export { chunkerNode, chunkerProcess, type ChunkerDefinition, type ChunkFunction, type DocumentChunker } from './chunker-node.js';
