import type { Logger, WorkflowNodeRef, Services } from '@quarry/core';
import { quarryError } from '@quarry/core/errors';
import type { z } from 'zod';
import type { EmbedBackend } from '../embed/batch-operator.js';
import { azureOpenAIEmbedSettings } from '../embed/azure-openai.node.js';
import { bedrockEmbedSettings } from '../embed/bedrock.node.js';
import { ibmEmbedSettings } from '../embed/ibm.node.js';
import { localEmbedSettings } from '../embed/local.node.js';
import { openAIEmbedSettings } from '../embed/openai.node.js';
import { REMOTE_EMBED_SUBTYPES, type RemoteEmbedSettings, type RemoteEmbedSubtype } from '../embed/remote-embed-node.js';
import { togetherAIEmbedSettings } from '../embed/togetherai.node.js';
import { voyageAIEmbedSettings } from '../embed/voyageai.node.js';
import { embeddingModelNames, findEmbeddingModel } from '../embed/embedding-models.js';
import { loadLocalModel } from '../embed/local-model.js';
import { createRemoteBackend, defaultBatchLimits } from '../embed/remote-backend.js';
import { providerPool } from '../providers/pool.js';
import type { EmbedTexts } from './chunk-by-similarity.js';

/** Where chunk_by_similarity's embedding model comes from: an embedder subtype and that embedder's settings. */
export interface EmbeddingRef {
  subtype: string;
  settings: Record<string, unknown>;
}

/** An embedding function for chunk_by_similarity and the resources it holds. */
export interface SimilarityEmbedder {
  /** `provider/model`, for messages. */
  label: string;
  embed: (texts: string[], signal: AbortSignal) => Promise<number[][]>;
  close(): Promise<void>;
}

/**
 * The embedder chunk_by_similarity uses: `settings.embedding` when given (`{ subtype, ...that
 * embedder's settings }`, e.g. `{ subtype: 'local', model_path: './models/all-MiniLM-L6-v2' }`),
 * else the workflow's own embed node. Undefined when there is neither.
 */
export function embeddingRef(configured: Record<string, unknown> | null | undefined, nodes: readonly WorkflowNodeRef[]): EmbeddingRef | undefined {
  if (configured) {
    const { subtype, ...settings } = configured;
    return { subtype: String(subtype), settings };
  }
  const node = nodes.find((n) => n.type === 'embed');
  return node ? { subtype: node.subtype, settings: node.settings ?? {} } : undefined;
}

/** The settings schema of each remote embedder, to read `embedding` as that embedder would. */
const REMOTE_SETTINGS: Readonly<Record<RemoteEmbedSubtype, () => z.ZodType>> = {
  azure_openai: azureOpenAIEmbedSettings,
  bedrock: bedrockEmbedSettings,
  ibm: ibmEmbedSettings,
  openai: openAIEmbedSettings,
  togetherai: togetherAIEmbedSettings,
  voyageai: voyageAIEmbedSettings,
};

function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw quarryError('SETTINGS_INVALID', `${what}: ${r.error.issues.map((i) => `${i.path.join('.') || '(settings)'}: ${i.message}`).join('; ')}`);
}

/**
 * Cuts `text` until the backend counts at most `max` tokens: elements are not chunked yet and may
 * be longer than the model takes, and, as sentence-transformers does, the head of the text stands
 * for all of it when comparing neighbours.
 */
function fitted<P>(backend: EmbedBackend<P>, text: string): { tokens: number; payload: P } {
  let prepared = backend.prepare(text);
  const max = backend.maxInputTokens;
  let cut = text;
  while (max !== undefined && prepared.tokens > max && cut.length > 1) {
    cut = cut.slice(0, Math.max(1, Math.floor((cut.length * max * 0.95) / prepared.tokens)));
    prepared = backend.prepare(cut);
  }
  return prepared;
}

/** Embeds texts with `backend` in batches of at most `maxInputs` inputs and `maxTokens` tokens, in order. */
function batchedEmbed<P>(backend: EmbedBackend<P>, maxInputs: number, maxTokens: number): (texts: string[], signal: AbortSignal) => Promise<number[][]> {
  return async (texts, signal) => {
    const out: number[][] = [];
    let batch: P[] = [];
    let tokens = 0;
    const flush = async (): Promise<void> => {
      if (!batch.length) return;
      out.push(...(await backend.embed(batch, tokens, signal)));
      batch = [];
      tokens = 0;
    };
    for (const text of texts) {
      // Empty inputs are rejected by some providers; one space embeds as "nothing" everywhere.
      const p = fitted(backend, text.length ? text : ' ');
      if (batch.length && (batch.length >= maxInputs || tokens + p.tokens > maxTokens)) await flush();
      batch.push(p.payload);
      tokens += p.tokens;
    }
    await flush();
    return out;
  };
}

/**
 * Creates the embedding function chunk_by_similarity compares elements with, reusing the embedder
 * nodes' own code: a `local` ONNX model (transformers.js, offline) or a remote provider, with the
 * same settings an embed node of that subtype takes, and the job's provider pool.
 *
 * @throws QuarryError `SETTINGS_INVALID` for an unknown subtype or model, or invalid settings;
 *   `EMBED_MODEL_UNAVAILABLE` when a local model cannot be loaded.
 */
export async function createSimilarityEmbedder(ref: EmbeddingRef, deps: { services: Services; logger: Logger }): Promise<SimilarityEmbedder> {
  if (ref.subtype === 'local') {
    const settings = parse(localEmbedSettings(), ref.settings, 'chunk_by_similarity embedding (local)');
    const model = await loadLocalModel(settings);
    return {
      label: model.backend.label,
      embed: batchedEmbed(model.backend, settings.batch_size, settings.max_batch_tokens ?? Number.POSITIVE_INFINITY),
      close: () => model.close(),
    };
  }
  if (!(REMOTE_EMBED_SUBTYPES as readonly string[]).includes(ref.subtype)) {
    throw quarryError(
      'SETTINGS_INVALID',
      `chunk_by_similarity cannot embed with embedder subtype ${JSON.stringify(ref.subtype)}; known: local, ${REMOTE_EMBED_SUBTYPES.join(', ')}`,
    );
  }
  const subtype = ref.subtype as RemoteEmbedSubtype;
  const settings = parse(REMOTE_SETTINGS[subtype]() as z.ZodType<RemoteEmbedSettings>, ref.settings, `chunk_by_similarity embedding (${subtype})`);
  const info = findEmbeddingModel(subtype, settings.model_name);
  if (!info) {
    throw quarryError(
      'SETTINGS_INVALID',
      `unknown ${subtype} embedding model ${JSON.stringify(settings.model_name)}; known ${subtype} models: ${embeddingModelNames(subtype).join(', ')}`,
    );
  }
  const remote = await createRemoteBackend(subtype, settings, info, { pool: providerPool(deps.services), logger: deps.logger });
  const limits = defaultBatchLimits(subtype, info.model_name);
  return {
    label: remote.backend.label,
    embed: batchedEmbed(remote.backend, settings.batch_size ?? limits.maxInputs, settings.max_batch_tokens ?? limits.maxTokens),
    close: async () => remote.close(),
  };
}

/** Binds an embedder to one document's abort signal, as {@link EmbedTexts} wants. */
export function embedTextsFor(embedder: SimilarityEmbedder, signal: AbortSignal): EmbedTexts {
  return (texts) => embedder.embed(texts, signal);
}
