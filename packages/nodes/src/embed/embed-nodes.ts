import { CHUNK_MAX_CHARS_DEFAULT, defineNode, quarryError, type NodeCreateContext, type NodeDefinition } from '@quarry/core';
import type { ZodType } from 'zod';
import { providerPool } from '../providers/pool.js';
import { embedOperator } from './batch-operator.js';
import { localEmbedSettings, remoteEmbedSettings, type LocalEmbedSettings, type RemoteEmbedSettings, type RemoteEmbedSubtype } from './embed-node-settings.js';
import { embeddingModelNames, findEmbeddingModel, maxCharactersFor } from './embedding-models.js';
import { loadLocalModel, type LocalModelInfo } from './local-model.js';
import { createRemoteBackend, defaultBatchLimits } from './remote-backend.js';

const DESCRIPTIONS: Record<RemoteEmbedSubtype, string> = {
  azure_openai: 'embeds chunks with Azure OpenAI (text-embedding-3-small/large, ada-002)',
  bedrock: 'embeds chunks with Amazon Bedrock (Titan, Cohere v3)',
  ibm: 'embeds chunks with IBM watsonx.ai',
  openai: 'embeds chunks with any OpenAI-compatible embeddings endpoint',
  togetherai: 'embeds chunks with Together AI',
  voyageai: 'embeds chunks with Voyage AI',
};

function remoteEmbedNode(subtype: RemoteEmbedSubtype): NodeDefinition<RemoteEmbedSettings> {
  return defineNode<RemoteEmbedSettings>({
    type: 'embed',
    subtype,
    description: DESCRIPTIONS[subtype],
    // Each subtype's schema adds its own keys to the common ones; all fit RemoteEmbedSettings.
    settings: remoteEmbedSettings(subtype) as unknown as ZodType<RemoteEmbedSettings>,
    create: async (settings, ctx) => {
      const info = findEmbeddingModel(subtype, settings.model_name);
      if (!info) {
        throw quarryError('SETTINGS_INVALID', `unknown ${subtype} embedding model ${JSON.stringify(settings.model_name)}; known ${subtype} models: ${embeddingModelNames(subtype).join(', ')}`);
      }
      const remote = await createRemoteBackend(subtype, settings, info, { pool: providerPool(ctx.services), logger: ctx.logger });
      const limits = defaultBatchLimits(subtype, info.model_name);
      const options = {
        maxInputs: settings.batch_size ?? limits.maxInputs,
        maxTokens: settings.max_batch_tokens ?? limits.maxTokens,
        flushMs: settings.flush_ms,
        concurrency: settings.concurrency,
      };
      return { operator: (octx) => embedOperator(remote.backend, options, octx), close: () => remote.close() };
    },
  });
}

/**
 * SPEC.md node ordering rule 5 for the local model, whose limits are known only once its files
 * are read: the chunker's max_characters (or the library default when unset) must not exceed the
 * model's recommended chunk size (max tokens x 3.5).
 */
function checkChunkerFits(ctx: NodeCreateContext, info: LocalModelInfo): void {
  const index = ctx.nodes.findIndex((n) => n.type === 'chunk');
  if (index < 0) return;
  const raw = ctx.nodes[index]!.settings?.max_characters;
  const unset = raw === undefined || raw === null;
  if (!unset && typeof raw !== 'number') return;
  const max = unset ? CHUNK_MAX_CHARS_DEFAULT : raw;
  const limit = maxCharactersFor(info.max_tokens);
  if (max > limit) {
    const message = `the chunker's max_characters ${max}${unset ? ' (unset: the library default)' : ''} exceeds ${limit}, the recommended maximum chunk size of local embedding model ${info.model_name} (${info.max_tokens} tokens x 3.5); set max_characters to ${limit} or less`;
    throw quarryError('WORKFLOW_INVALID', message, { details: { problems: [{ code: 'order.max_characters_exceeds_model', path: `/workflow_nodes/${index}/settings/max_characters`, message }] } });
  }
}

/**
 * `local`: embeds chunks with an ONNX sentence-embedding model run by transformers.js from a local
 * directory (never downloading). Dimensions and the token limit are read from the model's files
 * when the job starts; one batch runs at a time (ONNX Runtime already uses every core), and its
 * chunks are tokenized just before it runs.
 */
export const localEmbedNode: NodeDefinition<LocalEmbedSettings> = defineNode<LocalEmbedSettings>({
  type: 'embed',
  subtype: 'local',
  description: 'embeds chunks with a local ONNX model (transformers.js), offline',
  settings: localEmbedSettings,
  create: async (settings, ctx) => {
    const model = await loadLocalModel(settings);
    try {
      checkChunkerFits(ctx, model.info);
    } catch (e) {
      await model.close();
      throw e;
    }
    const options = {
      maxInputs: settings.batch_size,
      maxTokens: settings.max_batch_tokens ?? Number.POSITIVE_INFINITY,
      flushMs: settings.flush_ms,
      concurrency: 1,
      // Tokenizing next to inference would take cores from ONNX Runtime's own threads.
      prepareOnDispatch: true,
    };
    return { operator: (octx) => embedOperator(model.backend, options, octx), close: () => model.close() };
  },
});

/** `azure_openai` embedder (REFERENCE.md d4). */
export const azureOpenAIEmbedNode = remoteEmbedNode('azure_openai');
/** `bedrock` embedder (REFERENCE.md d4). */
export const bedrockEmbedNode = remoteEmbedNode('bedrock');
/** `ibm` (watsonx.ai) embedder (REFERENCE.md d4). */
export const ibmEmbedNode = remoteEmbedNode('ibm');
/** `openai` embedder: any OpenAI-compatible endpoint. */
export const openAIEmbedNode = remoteEmbedNode('openai');
/** `togetherai` embedder (REFERENCE.md d4). */
export const togetherAIEmbedNode = remoteEmbedNode('togetherai');
/** `voyageai` embedder (REFERENCE.md d4). */
export const voyageAIEmbedNode = remoteEmbedNode('voyageai');

/** Every embedder node, remote subtypes first, then `local`. */
export const EMBED_NODES: ReadonlyArray<NodeDefinition<RemoteEmbedSettings> | NodeDefinition<LocalEmbedSettings>> = [azureOpenAIEmbedNode, bedrockEmbedNode, ibmEmbedNode, openAIEmbedNode, togetherAIEmbedNode, voyageAIEmbedNode, localEmbedNode];
