import { definePlugin, ENGINE_VERSION } from '@quarry/core';
import { unstructuredApiPartitionNode } from './partition/partition-node.js';
import { vlmPartitionNode } from './partition/vlm/vlm-node.js';
import { EMBED_NODES } from './embed/embed-nodes.js';
import { chunkBySimilarityNode } from './chunk/chunk-by-similarity.node.js';
import { PROMPTER_NODES } from './prompter/prompter-nodes.js';
import { EMBEDDING_MODELS } from './embed/embedding-models.js';
import { chunkByCharacterNode } from './chunk/chunk-by-character.node.js';
import { chunkByPageNode } from './chunk/chunk-by-page.node.js';
import { chunkByTitleNode } from './chunk/chunk-by-title.node.js';
import { BUILTIN_FORMATS } from './partition/formats/index.js';
import { NODES_ERROR_CODES } from './errors.js';

/**
 * Every built-in node of @quarry/nodes (partitioners, prompters for enrichment, chunkers and
 * embedders), the document formats the partitioners read, and the error codes they throw.
 *
 * @example
 * ```ts
 * const engine = createEngine().use(nodesPlugin);
 * ```
 */
export const nodesPlugin = definePlugin({
  name: '@quarry/nodes',
  engine: `^${ENGINE_VERSION}`,
  nodes: [unstructuredApiPartitionNode, vlmPartitionNode, chunkByCharacterNode, chunkByTitleNode, chunkByPageNode, chunkBySimilarityNode, ...PROMPTER_NODES, ...EMBED_NODES],
  embeddingModels: [...EMBEDDING_MODELS],
  formats: [...BUILTIN_FORMATS],
  errorCodes: NODES_ERROR_CODES,
});
