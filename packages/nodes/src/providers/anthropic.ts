import type Anthropic from '@anthropic-ai/sdk';
import { callProvider } from './call.js';
import { JSON_INSTRUCTION, PROVIDER_ENV, callContext, estimateTokens, requireSetting, resolve, stripJsonFence, type ProviderOptions } from './config.js';
import { providerError } from './errors.js';
import { credentialId, ProviderPool } from './pool.js';
import type { ChatMessage, ChatRequest, ChatResult, Provider } from './types.js';
import { importOptional } from '../optional-dependency.js';

type ContentBlock = Anthropic.Messages.TextBlockParam | Anthropic.Messages.ImageBlockParam;

function toAnthropicMessage(m: ChatMessage): Anthropic.Messages.MessageParam {
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  const blocks: ContentBlock[] = m.content.map((p) =>
    p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image', source: { type: 'base64', media_type: p.mimeType, data: p.data } },
  );
  return { role: m.role, content: blocks };
}

/**
 * The Anthropic Messages API provider (provider_a), on `@anthropic-ai/sdk`. Chat only: Anthropic
 * offers no embeddings. JSON is asked for by instruction (the API has no JSON mode). The SDK's
 * retries are off; {@link callProvider} owns retries, timeouts and the rate budget.
 *
 * @example
 * ```ts
 * const p = createAnthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY });
 * const { text } = await p.chat!({ model: 'claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'Hi' }], maxTokens: 100 });
 * ```
 */
export function createAnthropicProvider(opts: ProviderOptions = {}): Provider {
  const env = PROVIDER_ENV.anthropic;
  const apiKey = resolve(opts, opts.apiKey, env.apiKey);
  const baseURL = resolve(opts, opts.baseURL, env.baseURL);
  const pool = opts.pool ?? new ProviderPool(opts.clock);
  const ctx = callContext('anthropic', opts, pool, [apiKey], [apiKey]);
  const clientId = `anthropic:${credentialId(apiKey, baseURL, String(ctx.policy.timeoutMs))}`;

  const client = (): Promise<Anthropic> =>
    pool.client(clientId, async () => {
      const key = requireSetting('anthropic', apiKey, 'api_key', env.apiKey);
      const { default: AnthropicClient } = await importOptional<typeof import('@anthropic-ai/sdk')>('@anthropic-ai/sdk', 'the anthropic provider');
      return new AnthropicClient({ apiKey: key, ...(baseURL ? { baseURL } : {}), maxRetries: 0, timeout: ctx.policy.timeoutMs + 5_000 });
    });

  const chat = async (req: ChatRequest): Promise<ChatResult> => {
    const c = await client();
    const system = req.json ? [req.system, JSON_INSTRUCTION].filter(Boolean).join('\n\n') : req.system;
    const chars = req.messages.reduce(
      (n, m) => n + (typeof m.content === 'string' ? m.content.length : m.content.reduce((k, p) => k + (p.type === 'text' ? p.text.length : 6000), 0)),
      0,
    );
    const tokens = estimateTokens(system ?? '') + Math.ceil(chars / 4) + req.maxTokens;
    return callProvider(ctx, { operation: 'chat', model: req.model, tokens, ...(req.signal ? { signal: req.signal } : {}) }, async (signal) => {
      const res = await c.messages.create(
        {
          model: req.model,
          max_tokens: req.maxTokens,
          messages: req.messages.map(toAnthropicMessage),
          ...(system ? { system } : {}),
          ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
        },
        { signal },
      );
      const blocks = Array.isArray(res.content) ? res.content : [];
      const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
      if (!blocks.some((b) => b.type === 'text'))
        throw providerError('PROVIDER_ERROR', 'anthropic chat returned no text block', { provider: 'anthropic', model: req.model });
      const usage = { inputTokens: res.usage?.input_tokens ?? 0, outputTokens: res.usage?.output_tokens ?? 0 };
      return { value: { text: req.json ? stripJsonFence(text) : text, usage }, tokens: usage.inputTokens + usage.outputTokens };
    });
  };

  return { name: 'anthropic', chat };
}
