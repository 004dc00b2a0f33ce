import type { GoogleGenAI, Part } from '@google/genai';
import { callProvider } from './call.js';
import { PROVIDER_ENV, callContext, estimateTokens, fromEnv, requireSetting, resolve, stripJsonFence, type ProviderOptions } from './config.js';
import { providerError } from './errors.js';
import { credentialId, ProviderPool } from './pool.js';
import type { ChatMessage, ChatRequest, ChatResult, EmbedRequest, EmbedResult, Provider } from './types.js';
import { importOptional } from '../optional-dependency.js';

function toParts(m: ChatMessage): Part[] {
  if (typeof m.content === 'string') return [{ text: m.content }];
  return m.content.map((p) => (p.type === 'text' ? { text: p.text } : { inlineData: { mimeType: p.mimeType, data: p.data } }));
}

/**
 * The SDK's ApiError carries the status but not the headers; this fetch wrapper keeps the
 * Retry-After of a failed response so the retry policy can honour it.
 */
function retryAfterCapture(): { fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>; attach(e: unknown): unknown } {
  let retryAfter: string | undefined;
  return {
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      if (!res.ok) retryAfter = res.headers.get('retry-after') ?? undefined;
      return res;
    },
    attach(e) {
      if (retryAfter !== undefined && e && typeof e === 'object' && !('headers' in e)) {
        Object.defineProperty(e, 'headers', { value: { 'retry-after': retryAfter }, enumerable: false });
      }
      return e;
    },
  };
}

/**
 * The Google provider (provider_d), on `@google/genai`: the Gemini API with an API key, or Vertex
 * AI (`vertexai: true` with project and location, or an express-mode API key). Chat through
 * generateContent (native JSON mode), embeddings through embedContent (`RETRIEVAL_DOCUMENT`).
 * The SDK does not retry unless asked; {@link callProvider} owns retries, timeouts and the budget.
 *
 * @example
 * ```ts
 * const p = createGeminiProvider({ apiKey: process.env.GOOGLE_API_KEY });
 * const { text } = await p.chat!({ model: 'gemini-2.0-flash-001', messages: [{ role: 'user', content: 'Hi' }], maxTokens: 100 });
 * ```
 */
export function createGeminiProvider(opts: ProviderOptions = {}): Provider {
  const env = PROVIDER_ENV.vertexai;
  const apiKey = resolve(opts, opts.apiKey, env.apiKey);
  const vertexFlag = fromEnv(opts.env ?? process.env, env.vertexai);
  const vertexai = opts.vertexai ?? (vertexFlag !== undefined && ['1', 'true', 'yes'].includes(vertexFlag.toLowerCase()));
  const project = resolve(opts, opts.project, env.project);
  const location = resolve(opts, opts.location, env.location);
  const baseURL = resolve(opts, opts.baseURL, vertexai ? ['GOOGLE_VERTEX_BASE_URL'] : ['GOOGLE_GEMINI_BASE_URL']);
  const pool = opts.pool ?? new ProviderPool(opts.clock);
  const ctx = callContext('vertexai', opts, pool, [apiKey ?? `adc:${project ?? ''}`], [apiKey]);
  const clientId = `vertexai:${credentialId(apiKey, String(vertexai), project, location, baseURL)}`;

  const client = (): Promise<GoogleGenAI> =>
    pool.client(clientId, async () => {
      if (!vertexai) requireSetting('vertexai', apiKey, 'api_key', env.apiKey);
      else if (!apiKey) requireSetting('vertexai', project, 'project (or an express-mode api_key)', env.project);
      const { GoogleGenAI: Client } = await importOptional<typeof import('@google/genai')>('@google/genai', 'the vertexai provider');
      return new Client({
        vertexai,
        ...(apiKey ? { apiKey } : {}),
        ...(vertexai && !apiKey ? { project, location: location ?? 'us-central1' } : {}),
        ...(baseURL ? { httpOptions: { baseUrl: baseURL } } : {}),
      });
    });

  const chat = async (req: ChatRequest): Promise<ChatResult> => {
    const ai = await client();
    const tokens =
      estimateTokens(req.system ?? '') +
      req.messages.reduce(
        (n, m) => n + estimateTokens(typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')),
        0,
      ) +
      req.maxTokens;
    return callProvider(ctx, { operation: 'chat', model: req.model, tokens, ...(req.signal ? { signal: req.signal } : {}) }, async (signal) => {
      const capture = retryAfterCapture();
      try {
        const res = await ai.models.generateContent({
          model: req.model,
          contents: req.messages.map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: toParts(m) })),
          config: {
            abortSignal: signal,
            httpOptions: { fetch: capture.fetch },
            maxOutputTokens: req.maxTokens,
            ...(req.system ? { systemInstruction: req.system } : {}),
            ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
            ...(req.json ? { responseMimeType: 'application/json' } : {}),
          },
        });
        const text = res.text;
        if (typeof text !== 'string')
          throw providerError('PROVIDER_ERROR', 'vertexai chat returned no text (blocked or empty candidate)', { provider: 'vertexai', model: req.model });
        const usage = { inputTokens: res.usageMetadata?.promptTokenCount ?? 0, outputTokens: res.usageMetadata?.candidatesTokenCount ?? 0 };
        return {
          value: { text: req.json ? stripJsonFence(text) : text, usage },
          ...(res.usageMetadata ? { tokens: usage.inputTokens + usage.outputTokens } : {}),
        };
      } catch (e) {
        throw capture.attach(e);
      }
    });
  };

  const embed = async (req: EmbedRequest): Promise<EmbedResult> => {
    const ai = await client();
    return callProvider(
      ctx,
      { operation: 'embeddings', model: req.model, tokens: req.estimatedTokens ?? 0, ...(req.signal ? { signal: req.signal } : {}) },
      async (signal) => {
        const capture = retryAfterCapture();
        try {
          const res = await ai.models.embedContent({
            model: req.model,
            contents: req.inputs,
            config: { abortSignal: signal, httpOptions: { fetch: capture.fetch }, taskType: 'RETRIEVAL_DOCUMENT' },
          });
          const vectors = (res.embeddings ?? []).map((e) => e.values ?? []);
          if (vectors.length !== req.inputs.length || vectors.some((v) => v.length === 0)) {
            throw providerError('PROVIDER_ERROR', `vertexai embeddings returned ${vectors.length} vectors for ${req.inputs.length} inputs`, {
              provider: 'vertexai',
              model: req.model,
            });
          }
          return { value: { vectors, usage: { inputTokens: req.estimatedTokens ?? 0, outputTokens: 0 } } };
        } catch (e) {
          throw capture.attach(e);
        }
      },
    );
  };

  return { name: 'vertexai', chat, embed };
}
