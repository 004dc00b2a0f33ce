/**
 * Model providers of the partitioner (VLM/Auto) and prompter nodes, their neutral aliases
 * (provider_a .. provider_d), known model ids and the models retired on 2025-10-22.
 */

/** Real provider names (the Unstructured workflow API calls them provider_a .. provider_d). */
export const PROVIDERS = ['anthropic', 'bedrock', 'openai', 'vertexai'] as const;
/** A model provider. */
export type Provider = (typeof PROVIDERS)[number];

/** The Unstructured workflow API's neutral provider words and the real names they stand for. */
export const PROVIDER_ALIASES = {
  provider_a: 'anthropic',
  provider_b: 'bedrock',
  provider_c: 'openai',
  provider_d: 'vertexai',
} as const satisfies Record<string, Provider>;
/** A workflow API provider alias. */
export type ProviderAlias = keyof typeof PROVIDER_ALIASES;

/** Every accepted spelling of a provider: real names first, then aliases. */
export const PROVIDER_SPELLINGS = [...PROVIDERS, ...(Object.keys(PROVIDER_ALIASES) as ProviderAlias[])] as const;

/** The real provider for a name or alias; undefined when `value` is neither. */
export function normalizeProvider(value: unknown): Provider | undefined {
  if (typeof value !== 'string') return undefined;
  if ((PROVIDERS as readonly string[]).includes(value)) return value as Provider;
  return (PROVIDER_ALIASES as Record<string, Provider>)[value];
}

/** Default model of the VLM/Auto partitioner (the Unstructured workflow API: "a provider_a model is the default"). */
export const VLM_DEFAULT_MODEL = 'claude-sonnet-4-20250514';

/**
 * Default partitioner model per provider. The Unstructured workflow API gives only the provider_a default; defaulting an
 * openai partitioner to a Claude id would fail at run time, so each provider gets its own d5 model.
 */
export const VLM_DEFAULT_MODELS: Readonly<Record<Provider | 'auto', string>> = {
  anthropic: VLM_DEFAULT_MODEL,
  auto: VLM_DEFAULT_MODEL,
  bedrock: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
  openai: 'gpt-4o',
  vertexai: 'gemini-2.0-flash-001',
};

const CLAUDE_IDS = ['claude-opus-4-5-20251101', 'claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514', 'claude-sonnet-4-5-20250929'];
const BEDROCK_VLM_IDS = [
  'us.amazon.nova-lite-v1:0',
  'us.amazon.nova-pro-v1:0',
  'us.anthropic.claude-3-opus-20240229-v1:0',
  'us.anthropic.claude-3-haiku-20240307-v1:0',
  'us.anthropic.claude-3-sonnet-20240229-v1:0',
  'us.anthropic.claude-3-7-sonnet-20250219-v1:0',
  'us.anthropic.claude-sonnet-4-20250514-v1:0',
];

/**
 * Partitioner (Auto/VLM) model ids of the Unstructured Platform's self-service tier. Informational:
 * other tiers get other lists, so validation never rejects an id for being absent here.
 */
export const VLM_MODELS: Readonly<Record<Provider, readonly string[]>> = {
  anthropic: CLAUDE_IDS,
  bedrock: [...BEDROCK_VLM_IDS, 'us.meta.llama3-2-11b-instruct-v1:0', 'us.meta.llama3-2-90b-instruct-v1:0'],
  openai: ['gpt-4o', 'gpt-5-mini-2025-08-07'],
  vertexai: ['gemini-2.0-flash-001'],
};

/** Prompter (enrichment) model ids of the Unstructured Platform's self-service tier. Informational, like {@link VLM_MODELS}. */
export const PROMPTER_MODELS: Readonly<Record<Provider, readonly string[]>> = {
  anthropic: CLAUDE_IDS,
  bedrock: [...BEDROCK_VLM_IDS, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'],
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-5-mini'],
  vertexai: ['gemini-2.0-flash-001'],
};

/** A model that stopped being available on a date. */
export interface RetiredModel {
  model: string;
  provider: Provider;
  /** First day (UTC) on which workflows using the model fail, `YYYY-MM-DD`. */
  retired: string;
  /** A current model of the same provider to suggest instead. */
  replacement: string;
}

/** The provider_a and provider_b models of an older generation retired on 2025-10-22 (as the Unstructured Platform lists them). */
export const RETIRED_MODELS: readonly RetiredModel[] = [
  { model: 'claude-3-5-sonnet-20241022', provider: 'anthropic', retired: '2025-10-22', replacement: 'claude-sonnet-4-20250514' },
  {
    model: 'us.anthropic.claude-3-5-sonnet-20241022-v2:0',
    provider: 'bedrock',
    retired: '2025-10-22',
    replacement: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
  },
];

/** The retirement record of `model` when it is retired at `now`; undefined otherwise. */
export function retiredModel(model: unknown, now: Date): RetiredModel | undefined {
  if (typeof model !== 'string') return undefined;
  const hit = RETIRED_MODELS.find((r) => r.model === model);
  if (!hit) return undefined;
  return now.getTime() >= Date.parse(`${hit.retired}T00:00:00Z`) ? hit : undefined;
}

/**
 * Id shapes that belong to exactly one provider. Order matters: Bedrock ids carry a vendor prefix
 * (`anthropic.`, `us.amazon.`, even `openai.gpt-oss-…`), and Vertex AI names Claude models
 * `claude-…@date`, so those are tested before the bare `claude-` and `gpt-` shapes.
 */
const MODEL_FAMILIES: ReadonlyArray<{ provider: Provider; pattern: RegExp }> = [
  { provider: 'bedrock', pattern: /^(?:(?:us|eu|apac|global|jp|au|ca|us-gov)\.)?(?:anthropic|amazon|meta|cohere|mistral|ai21|deepseek|qwen|openai|writer)\./ },
  { provider: 'vertexai', pattern: /^(?:gemini-|claude-[^@]*@)/ },
  { provider: 'anthropic', pattern: /^claude-/ },
  { provider: 'openai', pattern: /^(?:gpt-|chatgpt-|o[1-9](?:-|$))/ },
];

/**
 * The provider a model id clearly belongs to, or undefined for ids of no known shape. Used only to
 * reject a model given to the wrong provider; unknown new ids are accepted because allowed lists
 * differ per account tier.
 */
export function modelProvider(model: string): Provider | undefined {
  return MODEL_FAMILIES.find((f) => f.pattern.test(model))?.provider;
}

/** A message when `model` clearly belongs to a provider other than `provider`; undefined when consistent or unknown. */
export function modelProviderMismatch(provider: Provider, model: string): string | undefined {
  const owner = modelProvider(model);
  if (!owner || owner === provider) return undefined;
  return `model "${model}" belongs to provider ${owner}, but the provider here is ${provider}; choose a ${provider} model (for example ${VLM_DEFAULT_MODELS[provider]}) or switch the provider to ${owner}`;
}
