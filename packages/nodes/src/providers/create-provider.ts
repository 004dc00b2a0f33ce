import { createAnthropicProvider } from './anthropic.js';
import { createBedrockProvider } from './bedrock.js';
import type { ProviderOptions } from './config.js';
import { createGeminiProvider } from './gemini.js';
import { createOpenAIProvider } from './openai.js';
import type { Provider, ProviderName } from './types.js';
import { createWatsonxProvider } from './watsonx.js';

/**
 * Creates a provider by name. No SDK is loaded until the first call.
 *
 * @example
 * ```ts
 * const pool = providerPool(ctx.services);
 * const p = createProvider('anthropic', { apiKey: settings.provider_api_key ?? undefined, pool, logger: ctx.logger });
 * ```
 */
export function createProvider(name: ProviderName, opts: ProviderOptions = {}): Provider {
  switch (name) {
    case 'anthropic':
      return createAnthropicProvider(opts);
    case 'bedrock':
      return createBedrockProvider(opts);
    case 'vertexai':
      return createGeminiProvider(opts);
    case 'ibm':
      return createWatsonxProvider(opts);
    case 'openai':
    case 'azure_openai':
    case 'togetherai':
    case 'voyageai':
      return createOpenAIProvider(name, opts);
    default: {
      const never: never = name;
      throw new Error(`unknown provider ${String(never)}`);
    }
  }
}
