import { definePlugin, ENGINE_VERSION } from '@quarry/core';
import { unstructuredApiPartitionNode } from './partition/partition-node.js';
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
  nodes: [unstructuredApiPartitionNode, chunkByCharacterNode, chunkByTitleNode, chunkByPageNode],
});
