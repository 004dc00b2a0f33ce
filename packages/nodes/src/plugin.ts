import { definePlugin, ENGINE_VERSION } from '@quarry/core';
import { unstructuredApiPartitionNode } from './partition/partition-node.js';
import { vlmPartitionNode } from './partition/vlm/vlm-node.js';
import { EMBED_NODES } from './embed/embed-nodes.js';
import { EMBEDDING_MODELS } from './embed/embedding-models.js';
import { chunkByCharacterNode, chunkByPageNode, chunkByTitleNode } from './chunk/chunker-nodes.js';

/**
 * Every built-in node of @quarry/nodes: the partitioners and the chunkers.
 *
 * @example
 * ```ts
 * const engine = createEngine().use(nodesPlugin);
 * ```
 */
export const nodesPlugin = definePlugin({
  name: '@quarry/nodes',
  engine: `^${ENGINE_VERSION}`,
  nodes: [unstructuredApiPartitionNode, vlmPartitionNode, chunkByCharacterNode, chunkByTitleNode, chunkByPageNode, ...EMBED_NODES],
  embeddingModels: [...EMBEDDING_MODELS],
});
