import { z } from 'zod';
import { strictSettings } from './schema-helpers.js';

/**
 * Embedder subtypes (providers) of the self-service tier: the five SPEC.md describes, named by
 * REFERENCE.md d4 (a cloud-hosted OpenAI-compatible service, a cloud model platform, an enterprise
 * AI platform, an open-model hosting service, a vector-embedding specialist).
 */
export const EMBED_SUBTYPES = ['azure_openai', 'bedrock', 'ibm', 'togetherai', 'voyageai'] as const;
/** An embedder subtype. */
export type EmbedSubtype = (typeof EMBED_SUBTYPES)[number];

const embedShape = {
  model_name: z
    .string({ error: (iss) => (iss.input === undefined ? 'model_name is required: an embedding model of the subtype (provider)' : `model_name must be a string; got ${JSON.stringify(iss.input)}`) })
    .min(1)
    .describe('embedding model of the subtype (provider)'),
};

/** Settings of an embedder node (`type: "embed"`, `subtype` = provider). */
export const embedSettings = strictSettings('embed', embedShape);
/** Parsed embedder settings. */
export type EmbedSettings = z.output<typeof embedSettings>;

/** Setting names of the embedder. */
export const EMBED_SETTING_KEYS: readonly string[] = Object.keys(embedShape);
