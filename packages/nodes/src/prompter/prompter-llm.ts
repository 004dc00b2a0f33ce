import type { Services } from '@quarry/core';
import type { Logger } from '@quarry/core';
import { createProvider } from '../providers/create-provider.js';
import { providerPool } from '../providers/pool.js';
import { providerError } from '../providers/errors.js';
import type { ChatRequest, ProviderName } from '../providers/types.js';

/** A chat model bound to one provider and model id, as an enrichment node uses it. */
export interface PrompterLlm {
  readonly provider: ProviderName;
  readonly model: string;
  /** One chat call through the provider layer (retries, rate budget, coded errors); returns the answer text. */
  chat(req: Omit<ChatRequest, 'model'>): Promise<string>;
}

/**
 * Binds `provider` + `model` for a node of a job. Keys and endpoints come from the environment
 * (the provider layer's `PROVIDER_ENV`: ANTHROPIC_API_KEY, OPENAI_API_KEY, AWS_*, GOOGLE_API_KEY,
 * ...), because the Unstructured workflow API gives prompter nodes no key setting. The job's provider pool (from
 * `services`) gives every node that uses the same key one shared rate budget, and its clock times
 * the retries.
 */
export function prompterLlm(provider: ProviderName, model: string, deps: { services: Services; logger: Logger }): PrompterLlm {
  const pool = providerPool(deps.services);
  const client = createProvider(provider, { pool, logger: deps.logger, clock: pool.clock });
  const chat = client.chat;
  if (!chat) throw providerError('PROVIDER_NOT_CONFIGURED', `provider ${provider} has no chat API; an enrichment needs a chat model`, { provider });
  return {
    provider,
    model,
    chat: async (req) => (await chat({ ...req, model })).text,
  };
}
