import { defineNode, lazySchema, zod } from '@quarry/core';
import { quarryError } from '@quarry/core/errors';
import type { z } from 'zod';
import { chunkBySimilarity } from './chunk-by-similarity.js';
import { chunkCommonShape, chunkMaxCharacters, chunkerSettings } from './chunk-settings.js';
import { chunkerProcess, type ChunkerDefinition } from './chunker-node.js';
import { resolveChunkingOptions, type ChunkerNodeSettings } from './options.js';
import { createSimilarityEmbedder, embeddingRef, embedTextsFor } from './similarity-embedder.js';

/** Settings of the chunk_by_similarity node: the Unstructured workflow API's, plus the optional `embedding` model. */
export interface ChunkBySimilarityNodeSettings extends ChunkerNodeSettings {
  /**
   * The model elements are compared with: an embedder subtype and that embedder's settings, e.g.
   * `{ subtype: 'local', model_path: './models/all-MiniLM-L6-v2' }` or
   * `{ subtype: 'openai', model_name: 'text-embedding-3-small' }`. Default: the workflow's embed node.
   */
  embedding?: Record<string, unknown> | null;
}

const embeddingSetting = () =>
  zod()
    .looseObject({
      subtype: zod().string({ error: 'embedding.subtype is required: local, openai, azure_openai, bedrock, ibm, togetherai or voyageai' }).min(1),
    })
    .nullish()
    .describe("embedding model: { subtype, ...that embedder's settings }; default: the workflow's embed node");

/** Settings of `chunk_by_similarity`: the common ones plus `similarity_threshold` (0.01..0.99) and `embedding`. */
export const chunkBySimilarityNodeSettings = lazySchema(() =>
  chunkerSettings('chunk_by_similarity', {
    ...chunkCommonShape(),
    similarity_threshold: zod()
      .number({ error: (iss) => `similarity_threshold must be a number between 0.01 and 0.99; got ${JSON.stringify(iss.input)}` })
      .min(0.01, { error: (iss) => `similarity_threshold must be between 0.01 and 0.99 (0.0 to 1.0 exclusive); got ${String(iss.input)}` })
      .max(0.99, { error: (iss) => `similarity_threshold must be between 0.01 and 0.99 (0.0 to 1.0 exclusive); got ${String(iss.input)}` })
      .nullish()
      .describe('minimum similarity of consecutive elements to share a chunk, 0.01..0.99; default none'),
    embedding: embeddingSetting(),
  }),
);

/**
 * `chunk_by_similarity`: embeds the document's elements with the workflow's embedder (or the
 * configured `embedding`) and joins consecutive elements only while their cosine similarity is at
 * least `similarity_threshold` (default 0.5), never past `max_characters`. The model is loaded
 * once per job and freed at its end. `contextual_chunking_strategy: "v1"` applies as on every
 * chunker.
 */
export const chunkBySimilarityNode = defineNode<ChunkBySimilarityNodeSettings>({
  type: 'chunk',
  subtype: 'chunk_by_similarity',
  aliases: ['by_similarity'],
  description: 'joins consecutive elements while their embeddings are similar enough',
  get settings() {
    return chunkBySimilarityNodeSettings() as unknown as z.ZodType<ChunkBySimilarityNodeSettings>;
  },
  chunkMaxCharacters,
  create: async (s, ctx) => {
    const options = resolveChunkingOptions('chunk_by_similarity', s);
    const ref = embeddingRef(s.embedding, ctx.nodes);
    if (!ref) {
      throw quarryError(
        'SETTINGS_INVALID',
        'chunk_by_similarity needs an embedding model: add an embed node to the workflow, or set settings.embedding (for example { "subtype": "local", "model_path": "./models/all-MiniLM-L6-v2" })',
      );
    }
    const embedder = await createSimilarityEmbedder(ref, { services: ctx.services, logger: ctx.logger });
    const node = chunkerProcess(s, ctx, (elements, signal) => chunkBySimilarity(elements, { ...options, embed: embedTextsFor(embedder, signal) }));
    return { ...node, close: () => embedder.close() };
  },
}) as ChunkerDefinition<'chunk_by_similarity', ReturnType<typeof chunkBySimilarityNodeSettings>, readonly ['by_similarity']>;
