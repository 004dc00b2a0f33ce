import type { NodeCreateContext } from '@quarry/core';
import type { PooledChunking } from '../pool/pooled-chunking.js';
import { chunkByCharacterNode } from './chunk-by-character.node.js';
import { chunkByPageNode } from './chunk-by-page.node.js';
import { chunkByTitleNode } from './chunk-by-title.node.js';
import { resolveChunkingOptions, type ChunkerNodeSettings } from './options.js';

// The chunkers whose work a partition process can do: pure CPU over the elements, no model to call.
const POOLED_CHUNKERS = [chunkByTitleNode, chunkByCharacterNode, chunkByPageNode];

/**
 * The chunking a partition node can hand to its partition processes: that of the chunker right
 * after it in the plan, when it is one of {@link POOLED_CHUNKERS} without contextual chunking
 * (which needs the elements here). Undefined otherwise: each node then does its own work.
 */
export function chunkingAfter(ctx: NodeCreateContext): PooledChunking | undefined {
  // The plan's own node: names may repeat, its settings object is the one this node was given.
  const at = ctx.nodes.findIndex((n) => n.name === ctx.node.name && n.settings === ctx.node.settings);
  const next = at < 0 ? undefined : ctx.nodes[at + 1];
  if (next?.type !== 'chunk') return undefined;
  const definition = POOLED_CHUNKERS.find((d) => d.subtype === next.subtype || (d.aliases as readonly string[]).includes(next.subtype));
  if (!definition) return undefined;
  const settings = definition.settings.parse(next.settings) as ChunkerNodeSettings;
  if (settings.contextual_chunking_strategy === 'v1') return undefined;
  return { subtype: definition.subtype, options: resolveChunkingOptions(definition.subtype, settings) };
}
