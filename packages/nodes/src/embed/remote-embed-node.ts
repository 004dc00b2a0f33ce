import { defineNode, lazySchema, quarryError, strictSettings, zod, type NodeDefinition } from '@quarry/core';
import type { z } from 'zod';
import { providerPool } from '../providers/pool.js';
import { embeddingModelNames, findEmbeddingModel } from './embedding-models.js';
import { createRemoteBackend, defaultBatchLimits, type RemoteEmbedSettings, type RemoteEmbedSubtype } from './remote-backend.js';

export { REMOTE_EMBED_SUBTYPES, type RemoteEmbedSettings, type RemoteEmbedSubtype } from './remote-backend.js';

const int = (min: number, max: number, what: string) => zod().number().int().min(min).max(max).describe(what);
/** An optional non-empty string setting; absent or null means the environment or the default. */
export const optionalString = (what: string) => zod().string().min(1).nullish().describe(what);

/** Settings every remote embedder takes, built on first call. Omitted optional values fall back to the environment or defaults. */
export const remoteEmbedCommonShape = lazySchema(() => ({
  model_name: zod()
    .string({
      error: (iss) =>
        iss.input === undefined
          ? 'model_name is required: an embedding model of the subtype (provider)'
          : `model_name must be a string; got ${JSON.stringify(iss.input)}`,
    })
    .min(1)
    .describe('embedding model of the subtype (provider)'),
  api_key: optionalString('API key; default: the provider environment variable'),
  base_url: optionalString('API endpoint; default: the provider environment variable or the vendor URL'),
  batch_size: int(1, 2048, 'most inputs per request').optional(),
  max_batch_tokens: int(1, 10_000_000, 'most (estimated) tokens per request').optional(),
  flush_ms: int(0, 60_000, 'how long a partial batch waits for more chunks (ms)').default(25),
  concurrency: int(1, 64, 'requests in flight at once').default(4),
  requests_per_minute: int(1, 10_000_000, "the key's request budget").optional(),
  tokens_per_minute: int(1, 1_000_000_000, "the key's token budget").optional(),
  timeout_ms: int(100, 3_600_000, 'time limit of one attempt (ms)').default(60_000),
  max_retries: int(0, 20, 'retries of a failed request (429, 5xx, timeouts)').default(5),
}));

/** Settings schema of a remote embedder: the common settings plus the subtype's own (strict: unknown keys are rejected). */
export function remoteEmbedSettings<const S extends z.ZodRawShape>(subtype: RemoteEmbedSubtype, extra: S) {
  return strictSettings(`embed/${subtype}`, { ...remoteEmbedCommonShape(), ...extra });
}

/**
 * A remote embedder node (its `settings` schema built on first validation): batches chunks across documents and embeds them through the provider
 * pool. It runs only registered embedding models (their limits drive batching and rule 5), so
 * validation rejects any other `model_name`.
 */
export function remoteEmbedNode(subtype: RemoteEmbedSubtype, description: string, settings: () => z.ZodType): NodeDefinition<RemoteEmbedSettings> {
  return defineNode<RemoteEmbedSettings>({
    type: 'embed',
    subtype,
    description,
    // Each subtype's schema adds its own keys to the common ones; all fit RemoteEmbedSettings.
    get settings() {
      return settings() as z.ZodType<RemoteEmbedSettings>;
    },
    registeredModelsOnly: true,
    create: async (s, ctx) => {
      const info = findEmbeddingModel(subtype, s.model_name);
      if (!info) {
        throw quarryError(
          'SETTINGS_INVALID',
          `unknown ${subtype} embedding model ${JSON.stringify(s.model_name)}; known ${subtype} models: ${embeddingModelNames(subtype).join(', ')}`,
        );
      }
      const remote = await createRemoteBackend(subtype, s, info, { pool: providerPool(ctx.services), logger: ctx.logger });
      const limits = defaultBatchLimits(subtype, info.model_name);
      const options = {
        maxInputs: s.batch_size ?? limits.maxInputs,
        maxTokens: s.max_batch_tokens ?? limits.maxTokens,
        flushMs: s.flush_ms,
        concurrency: s.concurrency,
      };
      // The batching operator (rxjs) loads with the first embedder, not with the plugin.
      const { embedOperator } = await import('./batch-operator.js');
      return { operator: (octx) => embedOperator(remote.backend, options, octx), close: () => remote.close() };
    },
  });
}
