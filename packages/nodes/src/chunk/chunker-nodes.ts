import {
  chunkByCharacterSettings,
  chunkByPageSettings,
  chunkByTitleSettings,
  defineNode,
  type Element,
  type NodeCreateContext,
  type NodeDefinition,
  type ProcessNode,
} from '@quarry/core';
import type { ZodType } from 'zod';
import { chunkByCharacter } from './chunk-by-character.js';
import { chunkByPage } from './chunk-by-page.js';
import { chunkByTitle } from './chunk-by-title.js';
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

type ChunkFn = (elements: Element[], options: ChunkingOptions) => Element[];

/**
 * Lifts a chunking function into a chunker node. Options are resolved once per job, so invalid
 * combinations fail at build time (workflow validation) and again here for library callers.
 */
function chunkerNode(subtype: ChunkerSubtype, schema: ZodType<ChunkerNodeSettings>, chunk: ChunkFn, description: string): NodeDefinition<ChunkerNodeSettings> {
  return defineNode<ChunkerNodeSettings>({
    type: 'chunk',
    subtype,
    description,
    settings: schema,
    create: (s, ctx) => {
      const options = resolveChunkingOptions(subtype, s);
      return chunkerProcess(s, ctx, (elements) => chunk(elements, options));
    },
  });
}

/** `chunk_by_character`: the reference library's `basic` strategy. */
export const chunkByCharacterNode = chunkerNode('chunk_by_character', chunkByCharacterSettings, chunkByCharacter, 'fills chunks up to max_characters regardless of sections');
/** `chunk_by_title`: sections start at titles (and pages unless multipage_sections). */
export const chunkByTitleNode = chunkerNode('chunk_by_title', chunkByTitleSettings, chunkByTitle, 'keeps sections together; small sections are combined');
/** `chunk_by_page`: like chunk_by_character, but never mixes pages. */
export const chunkByPageNode = chunkerNode('chunk_by_page', chunkByPageSettings, chunkByPage, 'one page never shares a chunk with another');
