import { defineNode, type Element, type NodeCreateContext, type NodeDefinition, type ProcessNode } from '@quarry/core';
import type { ZodType } from 'zod';
import { chunkMaxCharacters } from './chunk-settings.js';
import { contextualizeChunks, contextualLlm } from './contextual.js';
import { resolveChunkingOptions, type ChunkerNodeSettings, type ChunkerSubtype, type ChunkingOptions } from './options.js';

/** Chunks one document's elements (synchronously or not). */
export type DocumentChunker = (elements: Element[], signal: AbortSignal) => Element[] | Promise<Element[]>;

/**
 * The process node of a chunker: runs `chunk`, then, with `contextual_chunking_strategy: "v1"`,
 * prefixes each chunk with its LLM-written context ({@link contextualizeChunks}; the model comes
 * from `services` or the default, see `contextualLlm`).
 */
export function chunkerProcess(settings: ChunkerNodeSettings, ctx: NodeCreateContext, chunk: DocumentChunker): ProcessNode {
  if (settings.contextual_chunking_strategy !== 'v1') return { process: ({ elements }, pctx) => chunk(elements, pctx.signal) };
  const { llm, concurrency } = contextualLlm({ services: ctx.services, logger: ctx.logger });
  return {
    process: async ({ elements }, pctx) => {
      const chunks = await chunk(elements, pctx.signal);
      return contextualizeChunks(chunks, elements, { llm, concurrency, signal: pctx.signal, logger: pctx.logger });
    },
  };
}

/** A synchronous chunking function over resolved options. */
export type ChunkFunction = (elements: Element[], options: ChunkingOptions) => Element[];

/**
 * Lifts a chunking function into a chunker node. Options are resolved once per job, so invalid
 * combinations fail at build time (workflow validation) and again here for library callers.
 */
export function chunkerNode(
  subtype: ChunkerSubtype,
  schema: ZodType<ChunkerNodeSettings>,
  chunk: ChunkFunction,
  description: string,
): NodeDefinition<ChunkerNodeSettings> {
  return defineNode<ChunkerNodeSettings>({
    type: 'chunk',
    subtype,
    description,
    settings: schema,
    chunkMaxCharacters,
    create: (s, ctx) => {
      const options = resolveChunkingOptions(subtype, s);
      return chunkerProcess(s, ctx, (elements) => chunk(elements, options));
    },
  });
}
