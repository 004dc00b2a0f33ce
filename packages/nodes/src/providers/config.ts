import type { Logger } from '@quarry/core';
import { DEFAULT_RETRY_POLICY, type CallContext, type RetryPolicy } from './call.js';
import { providerError } from './errors.js';
import { credentialId, type ProviderPool } from './pool.js';
import type { RateLimits } from './rate-limiter.js';
import type { Clock } from './sleep.js';
import type { ProviderName } from './types.js';

/** Environment variables read when a setting is not given (documented in the nodes README). */
export const PROVIDER_ENV = {
  anthropic: { apiKey: ['ANTHROPIC_API_KEY'], baseURL: ['ANTHROPIC_BASE_URL'] },
  openai: { apiKey: ['OPENAI_API_KEY'], baseURL: ['OPENAI_BASE_URL'] },
  azure_openai: { apiKey: ['AZURE_OPENAI_API_KEY'], baseURL: ['AZURE_OPENAI_ENDPOINT'], apiVersion: ['OPENAI_API_VERSION'] },
  togetherai: { apiKey: ['TOGETHER_API_KEY'], baseURL: ['TOGETHER_BASE_URL'] },
  voyageai: { apiKey: ['VOYAGE_API_KEY'], baseURL: ['VOYAGE_BASE_URL'] },
  bedrock: {
    accessKeyId: ['AWS_ACCESS_KEY_ID'],
    secretAccessKey: ['AWS_SECRET_ACCESS_KEY'],
    sessionToken: ['AWS_SESSION_TOKEN'],
    region: ['AWS_REGION', 'AWS_DEFAULT_REGION'],
    baseURL: ['AWS_ENDPOINT_URL_BEDROCK_RUNTIME', 'AWS_ENDPOINT_URL'],
  },
  vertexai: {
    apiKey: ['GOOGLE_API_KEY', 'GEMINI_API_KEY'],
    vertexai: ['GOOGLE_GENAI_USE_VERTEXAI'],
    project: ['GOOGLE_CLOUD_PROJECT'],
    location: ['GOOGLE_CLOUD_LOCATION'],
    baseURL: ['GOOGLE_GEMINI_BASE_URL', 'GOOGLE_VERTEX_BASE_URL'],
  },
  ibm: {
    apiKey: ['WATSONX_AI_APIKEY'],
    baseURL: ['WATSONX_AI_URL'],
    projectId: ['WATSONX_AI_PROJECT_ID'],
    spaceId: ['WATSONX_AI_SPACE_ID'],
    iamURL: ['WATSONX_AI_IAM_URL'],
  },
} as const satisfies Record<ProviderName, Record<string, readonly string[]>>;

/** Default API endpoints of the providers whose SDK does not know them. */
export const DEFAULT_BASE_URLS = {
  togetherai: 'https://api.together.xyz/v1',
  voyageai: 'https://api.voyageai.com/v1',
  ibm: 'https://us-south.ml.cloud.ibm.com',
  ibmIam: 'https://iam.cloud.ibm.com',
} as const;

/** Options shared by every provider factory. Any field left out falls back to {@link PROVIDER_ENV}. */
export interface ProviderOptions {
  apiKey?: string;
  /** API endpoint (OpenAI-compatible base URL, Azure resource endpoint, Bedrock endpoint, ...). */
  baseURL?: string;
  /** Azure OpenAI API version (default `2024-10-21`). */
  apiVersion?: string;
  /** AWS region for Bedrock (default `us-east-1`). */
  region?: string;
  /** AWS credentials; when absent (and not in the environment) the AWS default chain applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  /** Google: use Vertex AI rather than the Gemini API. */
  vertexai?: boolean;
  project?: string;
  location?: string;
  /** IBM watsonx.ai project or deployment space. */
  projectId?: string;
  spaceId?: string;
  /** IBM Cloud IAM endpoint (default https://iam.cloud.ibm.com). */
  iamURL?: string;
  /** This key's budget; shared with every other user of the key in the same pool. */
  limits?: RateLimits;
  retry?: Partial<RetryPolicy>;
  /** The job's pool (from `providerPool(ctx.services)`); a private one when absent. */
  pool?: ProviderPool;
  logger?: Logger;
  /** Environment to read instead of `process.env` (tests). */
  env?: Record<string, string | undefined>;
  /** Test hooks: fake clock and jitter. */
  clock?: Clock;
  random?: () => number;
}

/** Reads the first non-empty environment variable of `names`. */
export function fromEnv(env: Record<string, string | undefined>, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = env[n];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/** A setting if given, else the environment. */
export function resolve(opts: ProviderOptions, value: string | undefined, names: readonly string[]): string | undefined {
  if (value !== undefined && value !== '') return value;
  return fromEnv(opts.env ?? process.env, names);
}

/** Throws PROVIDER_NOT_CONFIGURED naming the setting and the environment variables. */
export function requireSetting(provider: ProviderName, value: string | undefined, setting: string, names: readonly string[]): string {
  if (value) return value;
  throw providerError('PROVIDER_NOT_CONFIGURED', `${provider}: no ${setting}; set it in the node settings or in the environment (${names.join(' or ')})`, {
    provider,
  });
}

/** The call context of a provider: pool limiter for the key, policy, secrets to redact. */
export function callContext(
  provider: ProviderName,
  opts: ProviderOptions,
  pool: ProviderPool,
  keyParts: ReadonlyArray<string | undefined>,
  secrets: ReadonlyArray<string | undefined>,
): CallContext {
  return {
    provider,
    secrets,
    limiter: pool.limiter(provider, credentialId(...keyParts), opts.limits ?? {}),
    policy: { ...DEFAULT_RETRY_POLICY, ...opts.retry },
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.random ? { random: opts.random } : {}),
    ...(opts.logger ? { logger: opts.logger } : {}),
  };
}

/** Removes a markdown code fence around a JSON answer. */
export function stripJsonFence(text: string): string {
  const m = /^\s*```(?:json)?\s*\n?([\s\S]*?)\n?\s*```\s*$/i.exec(text);
  return m ? m[1]!.trim() : text.trim();
}

/** Appended to the system prompt of providers without a native JSON mode. */
export const JSON_INSTRUCTION = 'Answer with a single JSON object and nothing else: no prose, no markdown code fences.';

/** Rough token estimate (4 characters per token) for budgeting chat calls before they are made. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
