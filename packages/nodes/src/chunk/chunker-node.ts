import { defineNode, type Element, type NodeCreateContext, type NodeDefinition, type ProcessNode } from '@quarry/core';
import type { z, ZodType } from 'zod';
import { chunkMaxCharacters } from './chunk-settings.js';
import { contextualizeChunks, contextualLlm } from './contextual.js';
import { loadHtmlParser } from './html-table.js';
import { resolveChunkingOptions, type ChunkerNodeSettings, type ChunkingOptions } from './options.js';
import { takePooledChunks } from './pool-handoff.js';

/** Chunks one document's elements (synchronously or not). */
export type DocumentChunker = (elements: Element[], signal: AbortSignal) => Element[] | Promise<Element[]>;

/**
 * The process node of a chunker: loads the table HTML parser (once), runs `chunk`, then, with `contextual_chunking_strategy: "v1"`,
 * prefixes each chunk with its LLM-written context ({@link contextualizeChunks}; the model comes
 * from `services` or the default, see `contextualLlm`).
 */
export function chunkerProcess(settings: ChunkerNodeSettings, ctx: NodeCreateContext, chunk: DocumentChunker): ProcessNode {
  if (settings.contextual_chunking_strategy !== 'v1') {
    return {
      process: async ({ elements }, pctx) => {
        await loadHtmlParser();
        return chunk(elements, pctx.signal);
      },
    };
  }
  const { llm, concurrency } = contextualLlm({ services: ctx.services, logger: ctx.logger });
  return {
    process: async ({ elements }, pctx) => {
      await loadHtmlParser();
      const chunks = await chunk(elements, pctx.signal);
      return contextualizeChunks(chunks, elements, { llm, concurrency, signal: pctx.signal, logger: pctx.logger });
    },
  };
}

/** A synchronous chunking function over resolved options. */
export type ChunkFunction = (elements: Element[], options: ChunkingOptions) => Element[];

/**
 * A chunker node whose type keeps its subtype, the other names it answers to and its settings
 * schema, so that the `chunk` helper's names and settings types come from the chunkers
 * `plugin.ts` registers, with nothing listed twice.
 */
export type ChunkerDefinition<
  Sub extends string = string,
  Schema extends ZodType = ZodType,
  Aliases extends readonly string[] = readonly string[],
> = NodeDefinition<z.output<Schema>> & {
  readonly type: 'chunk';
  readonly subtype: Sub;
  readonly aliases: Aliases;
  readonly settings: Schema;
};

/**
 * Lifts a chunking function into a chunker node. Options are resolved once per job, so invalid
 * combinations fail at build time (workflow validation) and again here for library callers.
 * `schema` is the settings schema, or better a function that builds it when the node's settings
 * are first checked (a `lazySchema`), so that defining the node loads no zod. `aliases` are the other names it answers to
 * (the Python library `unstructured`'s strategy name).
 */
export function chunkerNode<const Sub extends string, Schema extends ZodType<ChunkerNodeSettings>, const Aliases extends readonly string[]>(
  subtype: Sub,
  schema: Schema | (() => Schema),
  chunk: ChunkFunction,
  description: string,
  aliases: Aliases,
): ChunkerDefinition<Sub, Schema, Aliases> {
  const node = defineNode<ChunkerNodeSettings>({
    type: 'chunk',
    subtype,
    aliases,
    description,
    get settings() {
      return typeof schema === 'function' ? schema() : schema;
    },
    chunkMaxCharacters,
    create: (s, ctx) => {
      const options = resolveChunkingOptions(subtype, s);
      const here = chunkerProcess(s, ctx, (elements) => chunk(elements, options));
      // Right after a pooled partition node, the partition process has made this node's chunks already.
      return { ...here, process: (flow, pctx) => takePooledChunks(flow.elements, subtype) ?? here.process(flow, pctx) };
    },
  });
  return node as ChunkerDefinition<Sub, Schema, Aliases>;
}
