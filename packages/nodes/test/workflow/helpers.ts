import { z } from 'zod';
import {
  defineNode,
  definePlugin,
  Registry,
  validateWorkflow as coreValidateWorkflow,
  type EmbeddingModelInfo,
  type Problem,
  type ValidateWorkflowOptions,
} from '@quarry/core';
import { nodesPlugin } from '../../src/index.js';

/** REFERENCE.md d4: embedding models with their recommended maximum chunk sizes (tokens x 3.5). The ibm models have no figures there and are left out. */
export const D4_MODELS: EmbeddingModelInfo[] = [
  ['azure_openai', 'text-embedding-3-small', 1536, 8192, 28672],
  ['azure_openai', 'text-embedding-3-large', 3072, 8192, 28672],
  ['azure_openai', 'text-embedding-ada-002', 1536, 8192, 28672],
  ['bedrock', 'amazon.titan-embed-text-v2:0', 1024, 8192, 28672],
  ['bedrock', 'amazon.titan-embed-text-v1', 1536, 8192, 28672],
  ['bedrock', 'amazon.titan-embed-image-v1', 1024, 256, 896],
  ['bedrock', 'cohere.embed-english-v3', 1024, 512, 1792],
  ['bedrock', 'cohere.embed-multilingual-v3', 1024, 512, 1792],
  ['togetherai', 'togethercomputer/m2-bert-80M-32k-retrieval', 768, 8192, 28672],
  ['voyageai', 'voyage-3', 1024, 32000, 112000],
  ['voyageai', 'voyage-3-large', 1024, 32000, 112000],
  ['voyageai', 'voyage-3-lite', 512, 32000, 112000],
  ['voyageai', 'voyage-code-3', 1024, 32000, 112000],
  ['voyageai', 'voyage-finance-2', 1024, 32000, 112000],
  ['voyageai', 'voyage-multimodal-3', 1024, 32000, 112000],
  ['voyageai', 'voyage-code-2', 1536, 16000, 56000],
  ['voyageai', 'voyage-law-2', 1024, 16000, 56000],
].map(([provider, model_name, dimensions, max_tokens, max_characters]) => ({
  provider: provider as string,
  model_name: model_name as string,
  dimensions: dimensions as number,
  max_tokens: max_tokens as number,
  max_characters: max_characters as number,
}));

/** A registry of the built-in nodes and their embedding models, as an engine with `nodesPlugin` has. */
export function builtinRegistry(): Registry {
  const registry = new Registry();
  registry.register(nodesPlugin);
  return registry;
}

/** `validateWorkflow` of @quarry/core, with the built-in nodes registered unless `options.registry` says otherwise. */
export const validateWorkflow = ((body: unknown, options: ValidateWorkflowOptions = {}) =>
  coreValidateWorkflow(body, { registry: builtinRegistry(), ...options })) as typeof coreValidateWorkflow;

/**
 * A real {@link Registry} holding the built-in nodes with the d4 models (in place of the nodes' own
 * model table, so that the figures below are the ones checked), a tiny local embedder with a 400-character limit
 * (below the library default of 500), and two plugin nodes: a zod-configured prompter and a
 * JSON-Schema-configured chunker.
 */
export function testRegistry(): Registry {
  const registry = new Registry();
  registry.register(definePlugin({ name: 'builtin-nodes', engine: '*', nodes: nodesPlugin.nodes ?? [] }));
  registry.register(
    definePlugin({
      name: 'workflow-test',
      engine: '*',
      embeddingModels: [...D4_MODELS, { provider: 'tiny_local', model_name: 'tiny-bert', dimensions: 32, max_tokens: 128, max_characters: 400 }],
      nodes: [
        defineNode({
          type: 'prompter',
          subtype: 'uppercase',
          settings: z.strictObject({ shout: z.boolean().default(false), times: z.number().int().min(1).default(1) }),
          create: () => ({ process: (flow) => flow.elements }),
        }),
        defineNode({
          type: 'chunk',
          subtype: 'chunk_by_sentence',
          settings: {
            type: 'object',
            properties: { max_sentences: { type: 'integer', minimum: 1, default: 5 }, max_characters: { type: 'integer', minimum: 1 } },
            additionalProperties: false,
          },
          create: () => ({ process: (flow) => flow.elements }),
        }),
        defineNode({
          type: 'embed',
          subtype: 'tiny_local',
          settings: z.strictObject({ model_name: z.string() }),
          create: () => ({ process: (flow) => flow.elements }),
        }),
      ],
    }),
  );
  return registry;
}

/** A node literal. */
export type TestNode = { name?: string; type?: unknown; subtype?: unknown; settings?: unknown; [k: string]: unknown };

/** Node builders for the common kinds. */
export const nodes = {
  auto: (settings: Record<string, unknown> = {}): TestNode => ({
    name: 'Partitioner',
    type: 'partition',
    subtype: 'vlm',
    settings: { is_dynamic: true, allow_fast: true, ...settings },
  }),
  vlm: (settings: Record<string, unknown> = {}): TestNode => ({ name: 'VLM', type: 'partition', subtype: 'vlm', settings: { is_dynamic: false, ...settings } }),
  hiRes: (settings: Record<string, unknown> = {}): TestNode => ({
    name: 'High Res',
    type: 'partition',
    subtype: 'unstructured_api',
    settings: { strategy: 'hi_res', ...settings },
  }),
  fast: (settings: Record<string, unknown> = {}): TestNode => ({
    name: 'Fast',
    type: 'partition',
    subtype: 'unstructured_api',
    settings: { strategy: 'fast', ...settings },
  }),
  prompter: (subtype: string, settings: Record<string, unknown> = {}): TestNode => ({ name: `Enrich ${subtype}`, type: 'prompter', subtype, settings }),
  imageDescription: (): TestNode => ({
    name: 'Images',
    type: 'prompter',
    subtype: 'anthropic_image_description',
    settings: { provider_type: 'anthropic', model: 'claude-sonnet-4-20250514' },
  }),
  ner: (settings: Record<string, unknown> = {}): TestNode => ({
    name: 'NER',
    type: 'prompter',
    subtype: 'openai_ner',
    settings: { provider_type: 'openai', model: 'gpt-4o', ...settings },
  }),
  chunk: (subtype = 'chunk_by_title', settings: Record<string, unknown> = {}): TestNode => ({ name: 'Chunker', type: 'chunk', subtype, settings }),
  embed: (subtype = 'bedrock', model_name = 'cohere.embed-english-v3'): TestNode => ({ name: 'Embedder', type: 'embed', subtype, settings: { model_name } }),
};

/** A valid custom create body with a remote source and destination; `overrides` replace top-level fields. */
export function customBody(workflowNodes: unknown[] = [nodes.auto(), nodes.chunk()], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'wf', source_id: 'src-1', destination_id: 'dst-1', workflow_type: 'custom', workflow_nodes: workflowNodes, ...overrides };
}

/** `code @ path` of every problem, for compact assertions. */
export function codesAt(problems: readonly Problem[]): string[] {
  return problems.map((p) => `${p.code} @ ${p.path}`);
}

/** The one problem with `code`, failing loudly when there is not exactly one. */
export function only(problems: readonly Problem[], code: string): Problem {
  const hits = problems.filter((p) => p.code === code);
  if (hits.length !== 1) throw new Error(`expected exactly one ${code}, got ${JSON.stringify(problems, null, 2)}`);
  return hits[0]!;
}
