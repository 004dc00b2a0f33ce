/**
 * The provider layer shared by the embedders, prompters, the VLM partitioner and contextual
 * chunking: one interface over the vendors' official SDKs, one retry policy, one rate budget per key.
 */
export * from './types.js';
export * from './errors.js';
export { DEFAULT_RETRY_POLICY, callProvider, policyBackoff, type AttemptResult, type CallContext, type CallOptions, type RetryPolicy } from './call.js';
export { classifyError, isRetryable, type Failure, type FailureKind } from './classify-error.js';
export { DEFAULT_BASE_URLS, PROVIDER_ENV, type ProviderOptions } from './config.js';
export { PROVIDER_POOL_SERVICE, SHARED_RATE_BUDGETS_SERVICE, ProviderPool, credentialId, providerPool, type SharedRateBudgets } from './pool.js';
export { RateLimiter, type RateBudget, type RateLimits } from './rate-limiter.js';
export { parseRetryAfter, retryAfterFromHeaders } from './retry-after.js';
export { systemClock, type Clock } from './sleep.js';
export { createAnthropicProvider } from './anthropic.js';
export { createBedrockProvider } from './bedrock.js';
export { createGeminiProvider } from './gemini.js';
export { createOpenAIProvider, type OpenAICompatibleName } from './openai.js';
export { createWatsonxProvider, WATSONX_API_VERSION } from './watsonx.js';
export { createProvider } from './create-provider.js';
export {
  PROMPTER_MODELS,
  PROVIDERS,
  PROVIDER_ALIASES,
  PROVIDER_SPELLINGS,
  RETIRED_MODELS,
  VLM_DEFAULT_MODEL,
  VLM_DEFAULT_MODELS,
  VLM_MODELS,
  modelProvider,
  modelProviderMismatch,
  normalizeProvider,
  retiredModel,
  type Provider as ModelProvider,
  type ProviderAlias,
  type RetiredModel,
} from './models.js';
export { retiredModelProblems } from './model-rules.js';
