import type { BedrockRuntimeClient, ContentBlock, Message } from '@aws-sdk/client-bedrock-runtime';
import { callProvider, type CallContext } from './call.js';
import { JSON_INSTRUCTION, PROVIDER_ENV, callContext, estimateTokens, resolve, stripJsonFence, type ProviderOptions } from './config.js';
import { providerError } from './errors.js';
import { linkSignals } from './sleep.js';
import { credentialId, ProviderPool } from './pool.js';
import type { ChatMessage, ChatRequest, ChatResult, EmbedRequest, EmbedResult, Provider } from './types.js';
import { importOptional } from '../optional-dependency.js';

const DEFAULT_REGION = 'us-east-1';
/** Cohere on Bedrock takes at most 96 texts per call. */
export const BEDROCK_COHERE_MAX_TEXTS = 96;
/** Titan embeds one text per call; a batch runs this many calls at once. */
const TITAN_PARALLEL = 8;

type Runtime = typeof import('@aws-sdk/client-bedrock-runtime');

function toConverseMessage(m: ChatMessage): Message {
  const parts = typeof m.content === 'string' ? [{ type: 'text' as const, text: m.content }] : m.content;
  const content: ContentBlock[] = parts.map((p) =>
    p.type === 'text' ? { text: p.text } : { image: { format: p.mimeType === 'image/png' ? 'png' : 'jpeg', source: { bytes: Buffer.from(p.data, 'base64') } } },
  );
  return { role: m.role, content };
}

function parseJson(body: Uint8Array | undefined, what: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(body ?? new Uint8Array()));
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // fall through to the coded error
  }
  throw providerError('PROVIDER_ERROR', `bedrock ${what} returned a body that is not a JSON object`, { provider: 'bedrock' });
}

function isVector(v: unknown): v is number[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'number');
}

/**
 * The Amazon Bedrock provider (provider_b), on `@aws-sdk/client-bedrock-runtime`: chat through
 * the Converse API, embeddings through InvokeModel (Titan text/image embeddings one text per call,
 * Cohere v3 up to 96 texts per call, `truncate: "NONE"` so nothing is cut silently). Credentials
 * come from the options, the environment or the AWS default chain; the SDK's retries are off
 * (`maxAttempts: 1`).
 *
 * @example
 * ```ts
 * const p = createBedrockProvider({ region: 'us-east-1' });
 * const { vectors } = await p.embed!({ model: 'amazon.titan-embed-text-v2:0', inputs: ['hello'] });
 * ```
 */
export function createBedrockProvider(opts: ProviderOptions = {}): Provider {
  const env = PROVIDER_ENV.bedrock;
  const region = resolve(opts, opts.region, env.region) ?? DEFAULT_REGION;
  const endpoint = resolve(opts, opts.baseURL, env.baseURL);
  const accessKeyId = resolve(opts, opts.accessKeyId, env.accessKeyId);
  const secretAccessKey = resolve(opts, opts.secretAccessKey, env.secretAccessKey);
  const sessionToken = resolve(opts, opts.sessionToken, env.sessionToken);
  const pool = opts.pool ?? new ProviderPool(opts.clock);
  // Bedrock quotas are per account and region: the access key id (not secret) plus region names the budget.
  const ctx: CallContext = callContext('bedrock', opts, pool, [accessKeyId ?? 'aws-default-chain', region], [secretAccessKey, sessionToken]);
  const clientId = `bedrock:${credentialId(accessKeyId, secretAccessKey, sessionToken, region, endpoint)}`;

  const sdk = (): Promise<{ runtime: Runtime; client: BedrockRuntimeClient }> =>
    pool.client(clientId, async () => {
      const runtime = await importOptional<Runtime>('@aws-sdk/client-bedrock-runtime', 'the bedrock provider');
      const client = new runtime.BedrockRuntimeClient({
        region,
        maxAttempts: 1,
        ...(endpoint ? { endpoint } : {}),
        ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } } : {}),
      });
      return { runtime, client };
    });

  const invoke = async (modelId: string, body: Record<string, unknown>, tokens: number, signal: AbortSignal | undefined): Promise<Record<string, unknown>> => {
    const { runtime, client } = await sdk();
    return callProvider(ctx, { operation: 'embeddings', model: modelId, tokens, ...(signal ? { signal } : {}) }, async (s) => {
      const res = await client.send(
        new runtime.InvokeModelCommand({ modelId, contentType: 'application/json', accept: 'application/json', body: JSON.stringify(body) }),
        { abortSignal: s },
      );
      const json = parseJson(res.body, 'InvokeModel');
      const count = json.inputTextTokenCount;
      return { value: json, ...(typeof count === 'number' ? { tokens: count } : {}) };
    });
  };

  const embed = async (req: EmbedRequest): Promise<EmbedResult> => {
    const share = Math.ceil((req.estimatedTokens ?? 0) / Math.max(1, req.inputs.length));
    if (req.model.startsWith('cohere.')) {
      const vectors: number[][] = [];
      for (let i = 0; i < req.inputs.length; i += BEDROCK_COHERE_MAX_TEXTS) {
        const texts = req.inputs.slice(i, i + BEDROCK_COHERE_MAX_TEXTS);
        const json = await invoke(req.model, { texts, input_type: 'search_document', truncate: 'NONE' }, share * texts.length, req.signal);
        const got = json.embeddings;
        if (!Array.isArray(got) || got.length !== texts.length || !got.every(isVector)) {
          throw providerError('PROVIDER_ERROR', `bedrock ${req.model} returned no embeddings array of ${texts.length} vectors`, {
            provider: 'bedrock',
            model: req.model,
          });
        }
        vectors.push(...got);
      }
      return { vectors, usage: { inputTokens: req.estimatedTokens ?? 0, outputTokens: 0 } };
    }
    // Titan models embed one text per request.
    const vectors: number[][] = new Array<number[]>(req.inputs.length);
    let inputTokens = 0;
    let next = 0;
    // The first failure fails the batch; the sibling calls still running are cancelled.
    const stop = new AbortController();
    const link = linkSignals(req.signal, stop.signal);
    const signal = link.signal;
    const worker = async (): Promise<void> => {
      while (next < req.inputs.length && !signal.aborted) {
        const i = next++;
        const body = req.model.startsWith('amazon.titan-embed-text-v2') ? { inputText: req.inputs[i], normalize: true } : { inputText: req.inputs[i] };
        const json = await invoke(req.model, body, share, signal);
        if (!isVector(json.embedding))
          throw providerError('PROVIDER_ERROR', `bedrock ${req.model} returned no embedding`, { provider: 'bedrock', model: req.model });
        vectors[i] = json.embedding;
        if (typeof json.inputTextTokenCount === 'number') inputTokens += json.inputTextTokenCount;
      }
    };
    const runs = Array.from({ length: Math.min(TITAN_PARALLEL, req.inputs.length) }, () =>
      worker().catch((e: unknown) => {
        stop.abort(e);
        throw e;
      }),
    );
    const settled = await Promise.allSettled(runs);
    link.dispose();
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    // Report the real failure, not the cancellation it caused in the siblings.
    if (failed) throw stop.signal.reason ?? failed.reason;
    return { vectors, usage: { inputTokens, outputTokens: 0 } };
  };

  const chat = async (req: ChatRequest): Promise<ChatResult> => {
    const { runtime, client } = await sdk();
    const system = req.json ? [req.system, JSON_INSTRUCTION].filter(Boolean).join('\n\n') : req.system;
    const tokens =
      estimateTokens(system ?? '') +
      req.messages.reduce(
        (n, m) => n + estimateTokens(typeof m.content === 'string' ? m.content : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')),
        0,
      ) +
      req.maxTokens;
    return callProvider(ctx, { operation: 'chat', model: req.model, tokens, ...(req.signal ? { signal: req.signal } : {}) }, async (s) => {
      const res = await client.send(
        new runtime.ConverseCommand({
          modelId: req.model,
          messages: req.messages.map(toConverseMessage),
          ...(system ? { system: [{ text: system }] } : {}),
          inferenceConfig: { maxTokens: req.maxTokens, ...(req.temperature === undefined ? {} : { temperature: req.temperature }) },
        }),
        { abortSignal: s },
      );
      const content = res.output?.message?.content;
      if (!Array.isArray(content)) throw providerError('PROVIDER_ERROR', 'bedrock Converse returned no message', { provider: 'bedrock', model: req.model });
      const text = content.map((b) => b.text ?? '').join('');
      const usage = { inputTokens: res.usage?.inputTokens ?? 0, outputTokens: res.usage?.outputTokens ?? 0 };
      return { value: { text: req.json ? stripJsonFence(text) : text, usage }, tokens: usage.inputTokens + usage.outputTokens };
    });
  };

  return { name: 'bedrock', chat, embed };
}
