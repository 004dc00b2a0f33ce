import type OpenAI from 'openai';
import { callProvider } from './call.js';
import { DEFAULT_BASE_URLS, PROVIDER_ENV, callContext, estimateTokens, requireSetting, resolve, stripJsonFence, type ProviderOptions } from './config.js';
import { providerError } from './errors.js';
import { credentialId, ProviderPool } from './pool.js';
import type { ChatMessage, ChatRequest, ChatResult, EmbedRequest, EmbedResult, Provider } from './types.js';
import { importOptional } from '../optional-dependency.js';

/** Providers served by the OpenAI SDK: OpenAI itself, Azure OpenAI, and OpenAI-compatible APIs. */
export type OpenAICompatibleName = 'openai' | 'azure_openai' | 'togetherai' | 'voyageai';

const DEFAULT_AZURE_API_VERSION = '2024-10-21';

type ChatContent = OpenAI.Chat.Completions.ChatCompletionContentPart;

function toOpenAIMessage(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  if (m.role === 'assistant') return { role: 'assistant', content: m.content.map((p) => (p.type === 'text' ? p.text : '')).join('') };
  const parts: ChatContent[] = m.content.map((p) =>
    p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: `data:${p.mimeType};base64,${p.data}` } },
  );
  return { role: 'user', content: parts };
}

function messageChars(messages: ChatMessage[]): number {
  return messages.reduce(
    (n, m) => n + (typeof m.content === 'string' ? m.content.length : m.content.reduce((k, p) => k + (p.type === 'text' ? p.text.length : 3000), 0)),
    0,
  );
}

/**
 * An OpenAI-SDK provider (provider_c). `openai` talks to any OpenAI-compatible base URL;
 * `azure_openai` uses the SDK's Azure client (deployment = model name); `togetherai` and
 * `voyageai` use their OpenAI-compatible endpoints. The SDK's retries are off (`maxRetries: 0`):
 * {@link callProvider} owns retries, timeouts and the rate budget.
 *
 * @example
 * ```ts
 * const p = createOpenAIProvider('openai', { apiKey, baseURL: 'http://localhost:8000/v1' });
 * const { vectors } = await p.embed!({ model: 'text-embedding-3-small', inputs: ['hello'] });
 * ```
 */
export function createOpenAIProvider(name: OpenAICompatibleName, opts: ProviderOptions = {}): Provider {
  const env = PROVIDER_ENV[name];
  const apiKey = resolve(opts, opts.apiKey, env.apiKey);
  const defaultBase = name === 'togetherai' || name === 'voyageai' ? DEFAULT_BASE_URLS[name] : undefined;
  const baseURL = resolve(opts, opts.baseURL, env.baseURL) ?? defaultBase;
  const apiVersion = name === 'azure_openai' ? (resolve(opts, opts.apiVersion, PROVIDER_ENV.azure_openai.apiVersion) ?? DEFAULT_AZURE_API_VERSION) : undefined;
  // A keyless local server (vLLM, llama.cpp, ...) is identified by its URL instead of a key.
  const pool = opts.pool ?? new ProviderPool(opts.clock);
  const ctx = callContext(name, opts, pool, [apiKey ?? `url:${baseURL ?? ''}`], [apiKey]);
  // The SDK's own timeout (a backstop behind ours) is part of the client, so it is part of the id.
  const clientId = `${name}:${credentialId(apiKey, baseURL, apiVersion, String(ctx.policy.timeoutMs))}`;

  const client = (): Promise<OpenAI> =>
    pool.client(clientId, async () => {
      if (name === 'azure_openai') {
        const key = requireSetting(name, apiKey, 'api_key', env.apiKey);
        const endpoint = requireSetting(name, baseURL, 'base_url (the Azure resource endpoint)', env.baseURL);
        const { AzureOpenAI } = await importOptional<typeof import('openai')>('openai', 'the azure_openai provider');
        return new AzureOpenAI({ apiKey: key, endpoint, apiVersion: apiVersion!, maxRetries: 0, timeout: ctx.policy.timeoutMs + 5_000 }) as OpenAI;
      }
      // OpenAI-compatible servers run locally often need no key; the SDK insists on a string.
      const key = name === 'openai' && baseURL && !apiKey ? 'unused' : requireSetting(name, apiKey, 'api_key', env.apiKey);
      const { default: OpenAIClient } = await importOptional<typeof import('openai')>('openai', `the ${name} provider`);
      return new OpenAIClient({ apiKey: key, ...(baseURL ? { baseURL } : {}), maxRetries: 0, timeout: ctx.policy.timeoutMs + 5_000 });
    });

  const embed = async (req: EmbedRequest): Promise<EmbedResult> => {
    const c = await client();
    return callProvider(
      ctx,
      { operation: 'embeddings', model: req.model, tokens: req.estimatedTokens ?? 0, ...(req.signal ? { signal: req.signal } : {}) },
      async (signal) => {
        // Voyage accepts only base64 or its default; the SDK then decodes the float32 base64 itself.
        const body: OpenAI.Embeddings.EmbeddingCreateParams & { input_type?: string; truncation?: boolean } =
          name === 'voyageai'
            ? { model: req.model, input: req.inputs, input_type: 'document', truncation: false }
            : { model: req.model, input: req.inputs, encoding_format: 'float' };
        const res = await c.embeddings.create(body, { signal });
        const data = [...(res.data ?? [])].sort((a, b) => a.index - b.index);
        if (data.length !== req.inputs.length) {
          throw providerError('PROVIDER_ERROR', `${name} embeddings returned ${data.length} vectors for ${req.inputs.length} inputs`, {
            provider: name,
            model: req.model,
          });
        }
        const vectors = data.map((d) => Array.from(d.embedding as ArrayLike<number>));
        const tokens = res.usage?.prompt_tokens ?? res.usage?.total_tokens;
        return { value: { vectors, usage: { inputTokens: tokens ?? 0, outputTokens: 0 } }, ...(tokens === undefined ? {} : { tokens }) };
      },
    );
  };

  const chat = async (req: ChatRequest): Promise<ChatResult> => {
    const c = await client();
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      ...(req.system ? [{ role: 'system' as const, content: req.system }] : []),
      ...req.messages.map(toOpenAIMessage),
    ];
    const tokens = estimateTokens(req.system ?? '') + Math.ceil(messageChars(req.messages) / 4) + req.maxTokens;
    return callProvider(ctx, { operation: 'chat', model: req.model, tokens, ...(req.signal ? { signal: req.signal } : {}) }, async (signal) => {
      const res = await c.chat.completions.create(
        {
          model: req.model,
          messages,
          // OpenAI's newer models accept only max_completion_tokens; other OpenAI-compatible servers know max_tokens.
          ...(name === 'openai' || name === 'azure_openai' ? { max_completion_tokens: req.maxTokens } : { max_tokens: req.maxTokens }),
          ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
          ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
        },
        { signal },
      );
      const text = res.choices?.[0]?.message?.content;
      if (typeof text !== 'string') throw providerError('PROVIDER_ERROR', `${name} chat returned no message content`, { provider: name, model: req.model });
      const usage = { inputTokens: res.usage?.prompt_tokens ?? 0, outputTokens: res.usage?.completion_tokens ?? 0 };
      return { value: { text: req.json ? stripJsonFence(text) : text, usage }, ...(res.usage ? { tokens: usage.inputTokens + usage.outputTokens } : {}) };
    });
  };

  return name === 'voyageai' ? { name, embed } : { name, chat, embed };
}
