/**
 * Handlers that answer like each provider's real HTTP API (paths, bodies, error shapes), for the
 * loopback server. Embedding vectors are a deterministic function of the input text
 * ({@link fakeVector}), so a test can check that every chunk got the vector of its own text.
 */
import { createHash } from 'node:crypto';
import type { Handler, RecordedRequest, Reply } from './loopback-server.js';

/** A deterministic unit-free vector of `dims` numbers derived from `text`. */
export function fakeVector(text: string, dims: number): number[] {
  const seed = createHash('sha256').update(text).digest();
  let s = seed.readUInt32LE(0);
  const out = new Array<number>(dims);
  for (let i = 0; i < dims; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    // Values exactly representable as float32, so base64 float32 round trips compare equal.
    out[i] = Math.fround(((s >>> 8) / 0x1000000) * 2 - 1);
  }
  return out;
}

function base64Floats(v: number[]): string {
  return Buffer.from(new Float32Array(v).buffer).toString('base64');
}

const body = (req: RecordedRequest): Record<string, unknown> => (req.json && typeof req.json === 'object' ? (req.json as Record<string, unknown>) : {});

/** Rough token count the fake servers report: words. */
export function fakeTokens(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return '';
  const users = messages.filter((m: { role?: string }) => m.role === 'user');
  const last = users[users.length - 1] as { content?: unknown } | undefined;
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  if (Array.isArray(last.content)) return last.content.map((p: { text?: string }) => p.text ?? '').join('');
  return '';
}

/** OpenAI `/v1/embeddings` and `/v1/chat/completions`, also Azure's deployment paths. */
export function openAIWire(dims: (model: string) => number): Handler {
  return (req): Reply => {
    const b = body(req);
    if (req.path.endsWith('/embeddings')) {
      const inputs = Array.isArray(b.input) ? (b.input as string[]) : [String(b.input)];
      const model = typeof b.model === 'string' ? b.model : (/deployments\/([^/]+)\//.exec(req.path)?.[1] ?? 'unknown');
      const b64 = b.encoding_format === 'base64';
      const tokens = inputs.reduce((n, t) => n + fakeTokens(t), 0);
      return {
        status: 200,
        body: {
          object: 'list',
          data: inputs.map((t, index) => ({
            object: 'embedding',
            index,
            embedding: b64 ? base64Floats(fakeVector(t, dims(model))) : fakeVector(t, dims(model)),
          })),
          model,
          usage: { prompt_tokens: tokens, total_tokens: tokens },
        },
      };
    }
    if (req.path.endsWith('/chat/completions')) {
      const images = JSON.stringify(b.messages ?? []).split('"type":"image_url"').length - 1;
      const content = JSON.stringify({
        echo: lastUserText(b.messages),
        images,
        json_mode: (b.response_format as { type?: string } | undefined)?.type === 'json_object',
      });
      return {
        status: 200,
        body: {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: b.model,
          choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        },
      };
    }
    return { status: 404, body: { error: { message: `no route ${req.path}`, type: 'invalid_request_error' } } };
  };
}

/** An OpenAI-style error body. */
export function openAIError(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: { error: { message, type: status === 429 ? 'rate_limit_error' : 'server_error', code: null, param: null } } };
}

/** Anthropic `/v1/messages`. */
export function anthropicWire(): Handler {
  return (req): Reply => {
    if (req.path !== '/v1/messages') return { status: 404, body: { type: 'error', error: { type: 'not_found_error', message: req.path } } };
    const b = body(req);
    const images = JSON.stringify(b.messages ?? []).split('"type":"image"').length - 1;
    const text = JSON.stringify({ echo: lastUserText(b.messages), images, system: b.system ?? null });
    return {
      status: 200,
      body: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: b.model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 9 },
      },
    };
  };
}

/** An Anthropic error body. */
export function anthropicError(status: number, type: string, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: { type: 'error', error: { type, message } } };
}

/** Bedrock runtime `/model/{id}/invoke` (Titan and Cohere embeddings) and `/model/{id}/converse`. */
export function bedrockWire(): Handler {
  return (req): Reply => {
    const m = /^\/model\/([^/]+)\/(invoke|converse)$/.exec(req.path);
    if (!m) return { status: 404, headers: { 'x-amzn-errortype': 'ResourceNotFoundException' }, body: { message: req.path } };
    const modelId = decodeURIComponent(m[1]!);
    const b = body(req);
    if (m[2] === 'converse') {
      const messages = (b.messages ?? []) as Array<{ content?: Array<{ text?: string; image?: unknown }> }>;
      const images = messages.flatMap((x) => x.content ?? []).filter((c) => c.image).length;
      const text = (messages[messages.length - 1]?.content ?? []).map((c) => c.text ?? '').join('');
      return {
        status: 200,
        body: {
          output: { message: { role: 'assistant', content: [{ text: JSON.stringify({ echo: text, images, system: b.system ?? null }) }] } },
          stopReason: 'end_turn',
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          metrics: { latencyMs: 1 },
        },
      };
    }
    if (modelId.startsWith('cohere.')) {
      const texts = (b.texts ?? []) as string[];
      return { status: 200, body: { id: 'c1', response_type: 'embeddings_floats', texts, embeddings: texts.map((t) => fakeVector(t, 1024)) } };
    }
    const text = String(b.inputText ?? '');
    const dims = modelId === 'amazon.titan-embed-text-v1' ? 1536 : 1024;
    return { status: 200, body: { embedding: fakeVector(text, dims), inputTextTokenCount: fakeTokens(text) } };
  };
}

/** A Bedrock (AWS JSON) error. */
export function bedrockError(status: number, type: string, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'x-amzn-errortype': type, ...headers }, body: { message } };
}

/** Gemini API `models/{m}:generateContent`, `:embedContent` and `:batchEmbedContents`. */
export function geminiWire(dims = 768): Handler {
  return (req): Reply => {
    const m = /\/models\/([^/:]+):(generateContent|embedContent|batchEmbedContents)$/.exec(req.path);
    if (!m) return { status: 404, body: { error: { code: 404, message: req.path, status: 'NOT_FOUND' } } };
    const b = body(req);
    if (m[2] === 'generateContent') {
      const contents = (b.contents ?? []) as Array<{ parts?: Array<{ text?: string; inlineData?: unknown }> }>;
      const images = contents.flatMap((c) => c.parts ?? []).filter((p) => p.inlineData).length;
      const last = (contents[contents.length - 1]?.parts ?? []).map((p) => p.text ?? '').join('');
      const config = (b.generationConfig ?? {}) as { responseMimeType?: string };
      const text = JSON.stringify({ echo: last, images, json_mode: config.responseMimeType === 'application/json', system: b.systemInstruction ?? null });
      return {
        status: 200,
        body: {
          candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 4, totalTokenCount: 12 },
          modelVersion: m[1],
        },
      };
    }
    if (m[2] === 'batchEmbedContents') {
      const requests = (b.requests ?? []) as Array<{ content?: { parts?: Array<{ text?: string }> } }>;
      return {
        status: 200,
        body: { embeddings: requests.map((r) => ({ values: fakeVector((r.content?.parts ?? []).map((p) => p.text ?? '').join(''), dims) })) },
      };
    }
    const content = b.content as { parts?: Array<{ text?: string }> } | undefined;
    return { status: 200, body: { embedding: { values: fakeVector((content?.parts ?? []).map((p) => p.text ?? '').join(''), dims) } } };
  };
}

/** A Google API error (with RetryInfo for 429 when `retryDelay` is given). */
export function googleError(status: number, message: string, retryDelay?: string, headers: Record<string, string> = {}): Reply {
  const statusText = status === 429 ? 'RESOURCE_EXHAUSTED' : status >= 500 ? 'UNAVAILABLE' : 'INVALID_ARGUMENT';
  const details = retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] : [];
  return { status, headers, body: { error: { code: status, message, status: statusText, details } } };
}

/** IBM Cloud IAM `/identity/token` and watsonx.ai `/ml/v1/text/embeddings`. */
export function watsonxWire(dims: (model: string) => number, accessToken = 'iam-access-token-0123456789'): Handler {
  return (req): Reply => {
    if (req.path === '/identity/token') {
      return {
        status: 200,
        body: {
          access_token: accessToken,
          refresh_token: 'not_supported',
          token_type: 'Bearer',
          expires_in: 3600,
          expiration: Math.floor(Date.now() / 1000) + 3600,
          scope: 'ibm openid',
        },
      };
    }
    if (req.path === '/ml/v1/text/embeddings') {
      if (req.headers.authorization !== `Bearer ${accessToken}`)
        return { status: 401, body: { errors: [{ code: 'authentication_token_not_valid', message: 'bad token' }], status_code: 401 } };
      const b = body(req);
      const inputs = (b.inputs ?? []) as string[];
      const model = String(b.model_id);
      return {
        status: 200,
        body: {
          model_id: model,
          results: inputs.map((t) => ({ embedding: fakeVector(t, dims(model)) })),
          created_at: new Date(0).toISOString(),
          input_token_count: inputs.reduce((n, t) => n + fakeTokens(t), 0),
        },
      };
    }
    return { status: 404, body: { errors: [{ code: 'not_found', message: req.path }], status_code: 404 } };
  };
}
