import {
  chunkByCharacterSettings,
  chunkByPageSettings,
  chunkByTitleSettings,
  defineNode,
  type Element,
  type NodeDefinition,
} from '@quarry/core';
import type { ZodType } from 'zod';
import { chunkByCharacter } from './chunk-by-character.js';
import { chunkByPage } from './chunk-by-page.js';
import { chunkByTitle } from './chunk-by-title.js';
import { resolveChunkingOptions, type ChunkerNodeSettings, type ChunkerSubtype, type ChunkingOptions } from './options.js';

type ChunkFn = (elements: Element[], options: ChunkingOptions) => Element[];

/**
 * Lifts a chunking function into a chunker node. Options are resolved once per job, so invalid
 * combinations fail at build time (workflow validation) and again here for library callers.
 */
function chunkerNode(subtype: ChunkerSubtype, schema: ZodType<ChunkerNodeSettings>, chunk: ChunkFn, description: string): NodeDefinition<ChunkerNodeSettings> {
  const settings = schema.refine((s) => !s.contextual_chunking_strategy, {
    message: 'contextual_chunking_strategy "v1" needs an LLM provider for the chunk context; no provider layer is registered in this engine',
    path: ['contextual_chunking_strategy'],
  });
  return defineNode<ChunkerNodeSettings>({
    type: 'chunk',
    subtype,
    description,
    settings,
    create: (s) => {
      const options = resolveChunkingOptions(subtype, s);
      return { process: ({ elements }) => chunk(elements, options) };
    },
  });
}

/** `chunk_by_character`: the reference library's `basic` strategy. */
export const chunkByCharacterNode = chunkerNode('chunk_by_character', chunkByCharacterSettings, chunkByCharacter, 'fills chunks up to max_characters regardless of sections');
/** `chunk_by_title`: sections start at titles (and pages unless multipage_sections). */
export const chunkByTitleNode = chunkerNode('chunk_by_title', chunkByTitleSettings, chunkByTitle, 'keeps sections together; small sections are combined');
/** `chunk_by_page`: like chunk_by_character, but never mixes pages. */
export const chunkByPageNode = chunkerNode('chunk_by_page', chunkByPageSettings, chunkByPage, 'one page never shares a chunk with another');
