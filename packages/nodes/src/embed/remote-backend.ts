import type { EmbeddingModelInfo, Logger } from '@quarry/core';
import type { Tiktoken } from 'tiktoken';
import { createProvider } from '../providers/create-provider.js';
import type { ProviderPool } from '../providers/pool.js';
import type { EmbedBackend } from './batch-operator.js';
import { usesOpenAITokenizer } from './embedding-models.js';
import { BEDROCK_COHERE_MAX_TEXTS } from '../providers/bedrock.js';
import { importOptional } from '../optional-dependency.js';

/** Remote embedder subtypes: the hosted platform's five plus `openai` (any OpenAI-compatible endpoint). */
export const REMOTE_EMBED_SUBTYPES = ['azure_openai', 'bedrock', 'ibm', 'openai', 'togetherai', 'voyageai'] as const;
/** A remote embedder subtype. */
export type RemoteEmbedSubtype = (typeof REMOTE_EMBED_SUBTYPES)[number];

/** The SDK each remote embedder calls its provider with (watsonx.ai is two plain HTTP calls). */
const EMBEDDER_SDKS: Readonly<Record<RemoteEmbedSubtype, string | undefined>> = {
  azure_openai: 'openai',
  bedrock: '@aws-sdk/client-bedrock-runtime',
  ibm: undefined,
  openai: 'openai',
  togetherai: 'openai',
  voyageai: 'openai',
};

/** Parsed settings of a remote embedder (the union of every subtype's keys; each subtype's schema is in its node file). */
export interface RemoteEmbedSettings {
  model_name: string;
  api_key?: string | null;
  base_url?: string | null;
  batch_size?: number;
  max_batch_tokens?: number;
  flush_ms: number;
  concurrency: number;
  requests_per_minute?: number;
  tokens_per_minute?: number;
  timeout_ms: number;
  max_retries: number;
  api_version?: string | null;
  deployment?: string | null;
  region?: string | null;
  project_id?: string | null;
  space_id?: string | null;
}

/** Default request sizes per subtype: inputs and (estimated) tokens per request, within each vendor's limits. */
export function defaultBatchLimits(subtype: RemoteEmbedSubtype, model: string): { maxInputs: number; maxTokens: number } {
  switch (subtype) {
    case 'openai':
    case 'azure_openai':
      // OpenAI: at most 2048 inputs and 300 000 tokens per request.
      return { maxInputs: 2048, maxTokens: 250_000 };
    case 'voyageai':
      // Voyage: 1000 inputs; 120 000 tokens for the smallest per-request budget of its models.
      return { maxInputs: 128, maxTokens: 120_000 };
    case 'bedrock':
      return model.startsWith('cohere.')
        ? { maxInputs: BEDROCK_COHERE_MAX_TEXTS, maxTokens: BEDROCK_COHERE_MAX_TEXTS * 512 }
        : { maxInputs: 32, maxTokens: 32 * 8192 };
    case 'ibm':
      return { maxInputs: 256, maxTokens: 256 * 512 };
    case 'togetherai':
      return { maxInputs: 64, maxTokens: 100_000 };
  }
}

/** A remote embedding backend and the tokenizer it holds (freed by `close`). */
export interface RemoteBackend {
  backend: EmbedBackend<string>;
  close(): void;
}

/**
 * Builds the backend of a remote embedder: tiktoken's `cl100k_base` counts tokens (exactly for
 * the OpenAI models, as an estimate for the others, whose own limit is then enforced by the
 * provider), and the subtype's provider sends the batches.
 */
export async function createRemoteBackend(
  subtype: RemoteEmbedSubtype,
  settings: RemoteEmbedSettings,
  info: EmbeddingModelInfo,
  deps: { pool: ProviderPool; logger: Logger; env?: Record<string, string | undefined> },
): Promise<RemoteBackend> {
  const provider = createProvider(subtype, {
    ...(settings.api_key ? { apiKey: settings.api_key } : {}),
    ...(settings.base_url ? { baseURL: settings.base_url } : {}),
    ...(settings.api_version ? { apiVersion: settings.api_version } : {}),
    ...(settings.region ? { region: settings.region } : {}),
    ...(settings.project_id ? { projectId: settings.project_id } : {}),
    ...(settings.space_id ? { spaceId: settings.space_id } : {}),
    limits: {
      ...(settings.requests_per_minute ? { requestsPerMinute: settings.requests_per_minute } : {}),
      ...(settings.tokens_per_minute ? { tokensPerMinute: settings.tokens_per_minute } : {}),
    },
    retry: { timeoutMs: settings.timeout_ms, maxRetries: settings.max_retries },
    pool: deps.pool,
    logger: deps.logger,
    ...(deps.env ? { env: deps.env } : {}),
  });
  const embed = provider.embed!;
  // Both optional packages are looked for now, so one message names everything to install.
  const sdk = EMBEDDER_SDKS[subtype];
  const install = sdk ? [sdk, 'tiktoken'] : ['tiktoken'];
  const purpose = `the ${subtype} embedder`;
  if (sdk) await importOptional(sdk, purpose, { install });
  const { get_encoding } = await importOptional<typeof import('tiktoken')>('tiktoken', purpose, { install });
  const encoder: Tiktoken = get_encoding('cl100k_base');
  // Azure addresses a deployment, not a model; the deployment is named after the model unless told.
  const model = subtype === 'azure_openai' && settings.deployment ? settings.deployment : info.model_name;
  return {
    backend: {
      label: `${subtype} model ${info.model_name}`,
      dimensions: info.dimensions,
      maxInputTokens: usesOpenAITokenizer(info) ? info.max_tokens : undefined,
      prepare: (text) => ({ tokens: encoder.encode_ordinary(text).length, payload: text }),
      embed: async (inputs, tokens, signal) => (await embed({ model, inputs, signal, estimatedTokens: tokens })).vectors,
    },
    close: () => encoder.free(),
  };
}
