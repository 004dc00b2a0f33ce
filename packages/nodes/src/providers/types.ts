/**
 * Provider names. `anthropic`, `bedrock`, `openai` and `vertexai` are the Unstructured workflow API's provider_a to
 * provider_d; `azure_openai`, `togetherai`, `voyageai` and `ibm` are embedding providers of
 * the Unstructured Platform.
 */
export const PROVIDER_NAMES = ['anthropic', 'bedrock', 'openai', 'vertexai', 'azure_openai', 'togetherai', 'voyageai', 'ibm'] as const;
/** A provider name. */
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** An image sent to a chat model, base64-encoded (no `data:` prefix). */
export interface ImagePart {
  type: 'image';
  mimeType: 'image/png' | 'image/jpeg';
  data: string;
}

/** A text part of a chat message. */
export interface TextPart {
  type: 'text';
  text: string;
}

/** One chat turn. */
export interface ChatMessage {
  role: 'user' | 'assistant';
  content: string | Array<TextPart | ImagePart>;
}

/** Tokens a call consumed, as the provider reported them (0 when it did not). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** A chat (text generation) request, the same for every provider. */
export interface ChatRequest {
  model: string;
  system?: string;
  messages: ChatMessage[];
  maxTokens: number;
  temperature?: number;
  /**
   * Ask for a JSON object: native JSON mode where the provider has one (OpenAI, Gemini), an
   * instruction otherwise; markdown code fences around the answer are removed either way.
   */
  json?: boolean;
  signal?: AbortSignal;
}

/** A chat answer. */
export interface ChatResult {
  text: string;
  usage: Usage;
}

/** An embedding request: many inputs, one call (the caller sizes the batch). */
export interface EmbedRequest {
  model: string;
  inputs: string[];
  signal?: AbortSignal;
  /**
   * Token count the caller estimated for the whole batch, spent on the key's token budget before
   * the call (corrected afterwards from the reported usage).
   */
  estimatedTokens?: number;
}

/** Embedding vectors, one per input in input order. */
export interface EmbedResult {
  vectors: number[][];
  usage: Usage;
}

/** A configured provider client: chat and embeddings, each where the vendor offers it. */
export interface Provider {
  readonly name: ProviderName;
  /** Absent for embedding-only providers (voyageai, ibm, togetherai here). */
  chat?: (req: ChatRequest) => Promise<ChatResult>;
  /** Absent for providers without an embeddings API (anthropic). */
  embed?: (req: EmbedRequest) => Promise<EmbedResult>;
}
