import { Services } from '@quarry/core';
/**
 * Chat answers in each provider's real wire format (Anthropic Messages, OpenAI chat completions,
 * Bedrock Converse, Gemini generateContent) whose text a test chooses per request, plus the helpers
 * the prompter and contextual chunking tests share: environment pointing the SDKs at a loopback
 * server, and a node context.
 */
import {
  silentLogger,
  type Element,
  type NodeCreateContext,
  type NodeDefinition,
  type NodeInstance,
  type ProcessNode,
  type WorkflowNodeRef,
} from '@quarry/core';
import { vi } from 'vitest';
import { startLoopbackServer, type Handler, type LoopbackServer, type RecordedRequest, type Reply } from '../support/loopback-server.js';

/** The chat providers of the prompter nodes. */
export type ChatProvider = 'anthropic' | 'openai' | 'bedrock' | 'vertexai';

/** What a chat request asked, read back from its wire body. */
export interface ChatSeen {
  /** Text of the last user message. */
  text: string;
  /** Images sent in the request. */
  images: number;
  system: string;
  model: string;
  /** True when the provider's native JSON mode was switched on. */
  jsonMode: boolean;
  req: RecordedRequest;
}

/** Chooses the answer text of a chat request. */
export type Answer = (seen: ChatSeen) => string | Promise<string>;

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const textOf = (parts: unknown): string =>
  typeof parts === 'string' ? parts : Array.isArray(parts) ? parts.map((p) => (typeof obj(p).text === 'string' ? (obj(p).text as string) : '')).join('') : '';

/** Reads a recorded chat request of `provider` (undefined when it is no chat request). */
export function readChat(provider: ChatProvider, req: RecordedRequest): ChatSeen | undefined {
  const b = obj(req.json);
  if (provider === 'anthropic') {
    if (req.path !== '/v1/messages') return undefined;
    const messages = (b.messages ?? []) as Array<{ role: string; content: unknown }>;
    const last = messages.filter((m) => m.role === 'user').pop();
    const system = typeof b.system === 'string' ? b.system : textOf(b.system);
    return {
      text: textOf(last?.content),
      images: JSON.stringify(messages).split('"type":"image"').length - 1,
      system,
      model: String(b.model),
      jsonMode: false,
      req,
    };
  }
  if (provider === 'openai') {
    if (!req.path.endsWith('/chat/completions')) return undefined;
    const messages = (b.messages ?? []) as Array<{ role: string; content: unknown }>;
    const last = messages.filter((m) => m.role === 'user').pop();
    const system = messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => textOf(m.content))
      .join('\n');
    return {
      text: textOf(last?.content),
      images: JSON.stringify(messages).split('"type":"image_url"').length - 1,
      system,
      model: String(b.model),
      jsonMode: obj(b.response_format).type === 'json_object',
      req,
    };
  }
  if (provider === 'bedrock') {
    const m = /^\/model\/([^/]+)\/converse$/.exec(req.path);
    if (!m) return undefined;
    const messages = (b.messages ?? []) as Array<{ content?: Array<{ text?: string; image?: unknown }> }>;
    return {
      text: textOf(messages[messages.length - 1]?.content),
      images: messages.flatMap((x) => x.content ?? []).filter((c) => c.image).length,
      system: textOf(b.system),
      model: decodeURIComponent(m[1]!),
      jsonMode: false,
      req,
    };
  }
  const m = /\/models\/([^/:]+):generateContent$/.exec(req.path);
  if (!m) return undefined;
  const contents = (b.contents ?? []) as Array<{ parts?: Array<{ text?: string; inlineData?: unknown }> }>;
  return {
    text: textOf(contents[contents.length - 1]?.parts),
    images: contents.flatMap((c) => c.parts ?? []).filter((p) => p.inlineData).length,
    system: textOf(obj(b.systemInstruction).parts),
    model: m[1]!,
    jsonMode: obj(b.generationConfig).responseMimeType === 'application/json',
    req,
  };
}

function reply(provider: ChatProvider, model: string, text: string): Reply {
  switch (provider) {
    case 'anthropic':
      return {
        status: 200,
        body: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model,
          content: [{ type: 'text', text }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 12, output_tokens: 9 },
        },
      };
    case 'openai':
      return {
        status: 200,
        body: {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        },
      };
    case 'bedrock':
      return {
        status: 200,
        body: {
          output: { message: { role: 'assistant', content: [{ text }] } },
          stopReason: 'end_turn',
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          metrics: { latencyMs: 1 },
        },
      };
    case 'vertexai':
      return {
        status: 200,
        body: {
          candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 4, totalTokenCount: 12 },
          modelVersion: model,
        },
      };
  }
}

/** A handler answering chat requests of `provider` with `answer`'s text. */
export function chatWire(provider: ChatProvider, answer: Answer): Handler {
  return async (req) => {
    const seen = readChat(provider, req);
    if (!seen) return { status: 404, body: { error: { message: `no route ${req.path}` } } };
    return reply(provider, seen.model, await answer(seen));
  };
}

/** Test credentials; none is real. */
export const KEYS = {
  anthropic: 'sk-ant-test-0123456789abcdef',
  openai: 'sk-test-0123456789abcdefghij',
  google: 'AIza-test-0123456789',
  awsId: 'AKIATESTKEY0123',
  awsSecret: 'awsSecretTest0123456789',
};

/** Starts a loopback server for `provider` and points that provider's SDK at it through the environment. */
export async function startChatServer(provider: ChatProvider, answer: Answer): Promise<LoopbackServer> {
  const server = await startLoopbackServer(chatWire(provider, answer), provider === 'bedrock' ? { http2: true } : {});
  switch (provider) {
    case 'anthropic':
      vi.stubEnv('ANTHROPIC_API_KEY', KEYS.anthropic);
      vi.stubEnv('ANTHROPIC_BASE_URL', server.url);
      break;
    case 'openai':
      vi.stubEnv('OPENAI_API_KEY', KEYS.openai);
      vi.stubEnv('OPENAI_BASE_URL', server.url);
      break;
    case 'bedrock':
      vi.stubEnv('AWS_ACCESS_KEY_ID', KEYS.awsId);
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', KEYS.awsSecret);
      vi.stubEnv('AWS_REGION', 'us-east-1');
      vi.stubEnv('AWS_ENDPOINT_URL_BEDROCK_RUNTIME', server.url);
      break;
    case 'vertexai':
      vi.stubEnv('GOOGLE_API_KEY', KEYS.google);
      vi.stubEnv('GOOGLE_GEMINI_BASE_URL', server.url);
      break;
  }
  return server;
}

/** The chat requests `server` received, read back. */
export function chats(provider: ChatProvider, server: LoopbackServer): ChatSeen[] {
  return server.requests.map((r) => readChat(provider, r)).filter((s): s is ChatSeen => s !== undefined);
}

/** A node context for `node` in a plan of `nodes`. */
export function nodeContext(node: WorkflowNodeRef, nodes: readonly WorkflowNodeRef[], services = new Services()): NodeCreateContext {
  return { node, nodes, logger: silentLogger, signal: new AbortController().signal, services, formats: [] };
}

/** Parses `settings` with the node's schema, creates it for a plan, and returns a function processing one document. */
export async function createNode<S>(
  def: NodeDefinition<S>,
  settings: Record<string, unknown>,
  nodes: readonly WorkflowNodeRef[] = [],
  services = new Services(),
): Promise<{ run: (elements: Element[]) => Promise<Element[]>; instance: NodeInstance }> {
  const schema = def.settings as { parse(v: unknown): S };
  const parsed = schema.parse(settings);
  const self: WorkflowNodeRef = { name: def.subtype, type: def.type, subtype: def.subtype, settings };
  const instance = await def.create(parsed, nodeContext(self, [...nodes, self], services));
  const run = async (elements: Element[]): Promise<Element[]> => {
    const out = await (instance as ProcessNode).process(
      { document: { record_id: 'doc.pdf', filename: 'doc.pdf', data_source: {}, read: async () => new Uint8Array() }, elements },
      { signal: new AbortController().signal, logger: silentLogger, nodeName: def.subtype },
    );
    return Array.isArray(out) ? out : out.elements;
  };
  return { run, instance };
}

/** A 1x1 PNG, base64. */
export const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

let seq = 0;
/** An element with a fresh id. */
export function el(type: Element['type'], text: string, metadata: Element['metadata'] = {}): Element {
  return { element_id: `e${++seq}`, type, text, metadata };
}

/** A High Res partition node, with the given `extract_image_block_types`. */
export function hiRes(extract: string[] = ['Image', 'Table']): WorkflowNodeRef {
  return { name: 'Partitioner', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'hi_res', extract_image_block_types: extract } };
}
