import type { EmbeddingModelInfo } from '@quarry/core';

/** The docs' rule for the recommended chunk size: 3.5 characters per token (the Unstructured Platform's rule). */
export const CHARS_PER_TOKEN = 3.5;

/** Recommended maximum chunk characters for a token limit. */
export function maxCharactersFor(maxTokens: number): number {
  return Math.floor(maxTokens * CHARS_PER_TOKEN);
}

function model(provider: string, model_name: string, dimensions: number, max_tokens: number): EmbeddingModelInfo {
  return { provider, model_name, dimensions, max_tokens, max_characters: maxCharactersFor(max_tokens) };
}

const OPENAI_MODELS: Array<[string, number]> = [
  ['text-embedding-3-small', 1536],
  ['text-embedding-3-large', 3072],
  ['text-embedding-ada-002', 1536],
];

/**
 * Every embedding model the remote embedder subtypes accept: the self-service list of
 * the Unstructured Platform (dimensions, maximum input tokens, recommended maximum chunk characters =
 * tokens x 3.5), IBM's models from their public model cards, and the OpenAI models for the
 * `openai` subtype (any OpenAI-compatible endpoint). Registered with the engine, it drives the Unstructured workflow API
 * node ordering rule 5 and the unknown-model check at validation.
 */
export const EMBEDDING_MODELS: readonly EmbeddingModelInfo[] = Object.freeze([
  ...OPENAI_MODELS.map(([name, dims]) => model('azure_openai', name, dims, 8192)),
  model('bedrock', 'amazon.titan-embed-text-v2:0', 1024, 8192),
  model('bedrock', 'amazon.titan-embed-text-v1', 1536, 8192),
  model('bedrock', 'amazon.titan-embed-image-v1', 1024, 256),
  model('bedrock', 'cohere.embed-english-v3', 1024, 512),
  model('bedrock', 'cohere.embed-multilingual-v3', 1024, 512),
  model('togetherai', 'togethercomputer/m2-bert-80M-32k-retrieval', 768, 8192),
  model('voyageai', 'voyage-3', 1024, 32000),
  model('voyageai', 'voyage-3-large', 1024, 32000),
  model('voyageai', 'voyage-3-lite', 512, 32000),
  model('voyageai', 'voyage-code-3', 1024, 32000),
  model('voyageai', 'voyage-finance-2', 1024, 32000),
  model('voyageai', 'voyage-multimodal-3', 1024, 32000),
  model('voyageai', 'voyage-code-2', 1536, 16000),
  model('voyageai', 'voyage-law-2', 1024, 16000),
  model('ibm', 'sentence-transformers/all-minilm-l6-v2', 384, 256),
  model('ibm', 'ibm/granite-embedding-278m-multilingual', 768, 512),
  model('ibm', 'intfloat/multilingual-e5-large', 1024, 512),
  model('ibm', 'ibm/slate-125m-english-rtrvr-v2', 768, 512),
  model('ibm', 'ibm/slate-125m-multilingual-rtrvr-v2', 768, 512),
  ...OPENAI_MODELS.map(([name, dims]) => model('openai', name, dims, 8192)),
]);

/** A model's facts, or undefined when the provider does not offer it. */
export function findEmbeddingModel(provider: string, modelName: string): EmbeddingModelInfo | undefined {
  return EMBEDDING_MODELS.find((m) => m.provider === provider && m.model_name === modelName);
}

/** Model names one provider offers. */
export function embeddingModelNames(provider: string): string[] {
  return EMBEDDING_MODELS.filter((m) => m.provider === provider).map((m) => m.model_name);
}

/**
 * True when the model's own tokenizer is OpenAI's `cl100k_base`, so that tiktoken counts its
 * tokens exactly; for the other remote models tiktoken's count is an estimate.
 */
export function usesOpenAITokenizer(info: EmbeddingModelInfo): boolean {
  return info.provider === 'openai' || info.provider === 'azure_openai';
}
