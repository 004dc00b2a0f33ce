import { VLM_DEFAULT_MODEL } from '../providers/models.js';
import type { Element, Logger, ServiceKey, Services } from '@quarry/core';
import { quarryError } from '@quarry/core/errors';
import { serviceKey } from '@quarry/core/services';
import { withOrigin } from '../prompter/enrichment-task.js';
import { mapConcurrent } from '../prompter/map-concurrent.js';
import { prompterLlm, type PrompterLlm } from '../prompter/prompter-llm.js';
import { PROVIDER_NAMES, type ProviderName } from '../providers/types.js';

/**
 * Key of `NodeCreateContext.services` under which a host may set the model of contextual chunking
 * (`{ provider?, model?, concurrency? }`); the Unstructured workflow API gives the chunker no setting for it.
 */
export const CONTEXTUAL_CHUNKING_SERVICE: ServiceKey<ContextualChunkingConfig> = serviceKey<ContextualChunkingConfig>('quarry.contextualChunking');

/** The model contextual chunking uses unless the host says otherwise: the platform's default (provider_a). */
export const CONTEXTUAL_DEFAULT: { provider: ProviderName; model: string } = { provider: 'anthropic', model: VLM_DEFAULT_MODEL };

/** Calls in flight per document by default. */
export const CONTEXTUAL_CONCURRENCY = 8;

/** Most characters of the document sent with each chunk (about 50 000 tokens). */
export const CONTEXTUAL_MAX_DOCUMENT_CHARS = 200_000;

/** Host configuration of contextual chunking (see {@link CONTEXTUAL_CHUNKING_SERVICE}). */
export interface ContextualChunkingConfig {
  provider?: ProviderName;
  model?: string;
  concurrency?: number;
}

/** Options of {@link contextualizeChunks}. */
export interface ContextualizeOptions {
  llm: PrompterLlm;
  concurrency?: number;
  signal?: AbortSignal;
  maxDocumentChars?: number;
  logger?: Logger;
}

const SYSTEM = 'You situate excerpts of a document within the whole document, to improve search retrieval of the excerpts.';

function prompt(document: string, chunk: string): string {
  return [
    '<document>',
    document,
    '</document>',
    '',
    'Here is a chunk of that document:',
    '<chunk>',
    chunk,
    '</chunk>',
    '',
    'Write a short context (one or two sentences) that situates this chunk within the whole document: what the document is and where this chunk fits in it. Answer with the context only, no preamble.',
  ].join('\n');
}

/**
 * Where a chunk sits in the document, as a fraction of its length: where the chunk's opening
 * words occur in it, else the chunk's share of all chunk text before it (chunks cover the
 * document in order).
 */
function chunkPosition(document: string, chunk: string, fallback: number): number {
  const head = chunk.trim().slice(0, 64);
  const at = head ? document.indexOf(head) : -1;
  return at >= 0 && document.length > 0 ? (at + chunk.length / 2) / document.length : fallback;
}

/** The document text sent with a chunk: all of it when short enough, else a window around the chunk's position. */
function documentWindow(document: string, position: number, max: number): string {
  if (document.length <= max) return document;
  const start = Math.max(0, Math.min(document.length - max, Math.round(position * document.length - max / 2)));
  return `${start > 0 ? '[…]\n' : ''}${document.slice(start, start + max)}${start + max < document.length ? '\n[…]' : ''}`;
}

/** The model's context as one line without the format's own markers (models sometimes echo `Prefix:` or end with `;`). */
function cleanContext(answer: string): string {
  return answer
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^prefix:\s*/i, '')
    .replace(/[;\s]+$/, '')
    .trim();
}

/**
 * Contextual chunking `v1`, as the Unstructured Platform does it: for each chunk, one chat call writes a short
 * context from the whole document (the elements before chunking, joined by blank lines), and the
 * chunk text becomes `Prefix: <context>; Original: <chunk text>`, so that the embedding is made
 * of the new text. Calls run `concurrency` at a time under the provider layer's rate budget and
 * retries; chunks of the same text share one call. Chunks without text are kept as they are. Each
 * rewritten chunk records `enrichment_origins.text` (type `contextual_chunking`).
 */
export async function contextualizeChunks(chunks: readonly Element[], documentElements: readonly Element[], options: ContextualizeOptions): Promise<Element[]> {
  const { llm } = options;
  const document = documentElements
    .map((e) => e.text.trim())
    .filter(Boolean)
    .join('\n\n');
  const max = options.maxDocumentChars ?? CONTEXTUAL_MAX_DOCUMENT_CHARS;
  const total = chunks.reduce((n, c) => n + c.text.length, 0) || 1;
  const positions: number[] = [];
  let seen = 0;
  for (const c of chunks) {
    positions.push((seen + c.text.length / 2) / total);
    seen += c.text.length;
  }

  const cache = new Map<string, Promise<string>>();
  const contextOf = (text: string, position: number): Promise<string> => {
    let p = cache.get(text);
    if (!p) {
      p = llm
        .chat({
          system: SYSTEM,
          messages: [
            { role: 'user', content: prompt(document.length <= max ? document : documentWindow(document, chunkPosition(document, text, position), max), text) },
          ],
          maxTokens: 256,
          temperature: 0,
          ...(options.signal ? { signal: options.signal } : {}),
        })
        .then(cleanContext);
      cache.set(text, p);
    }
    return p;
  };

  const origin = { type: 'contextual_chunking', provider: llm.provider, model: llm.model };
  const out = await mapConcurrent(chunks, options.concurrency ?? CONTEXTUAL_CONCURRENCY, async (chunk, i): Promise<Element> => {
    if (!chunk.text.trim()) return chunk;
    const context = await contextOf(chunk.text, positions[i]!);
    return { ...chunk, text: `Prefix: ${context}; Original: ${chunk.text}`, metadata: withOrigin(chunk.metadata, ['text'], origin) };
  });
  options.logger?.debug('contextual chunking done', { chunks: chunks.length, calls: cache.size });
  return out;
}

/**
 * Reads the host's {@link ContextualChunkingConfig} from `services`; absent fields take
 * {@link CONTEXTUAL_DEFAULT} and {@link CONTEXTUAL_CONCURRENCY}.
 *
 * @throws QuarryError `SETTINGS_INVALID` for an unknown provider, a provider other than the
 *   default without a model, or a concurrency that is not a positive integer.
 */
export function contextualConfig(services: Services): Required<ContextualChunkingConfig> {
  const raw = services.get(CONTEXTUAL_CHUNKING_SERVICE);
  if (raw === undefined) return { ...CONTEXTUAL_DEFAULT, concurrency: CONTEXTUAL_CONCURRENCY };
  const bad = (why: string) => quarryError('SETTINGS_INVALID', `services["${CONTEXTUAL_CHUNKING_SERVICE.name}"] ${why}`);
  if (!raw || typeof raw !== 'object') throw bad('must be an object { provider?, model?, concurrency? }');
  const c = raw as Record<string, unknown>;
  if (c.provider !== undefined && !(typeof c.provider === 'string' && (PROVIDER_NAMES as readonly string[]).includes(c.provider))) {
    throw bad(`.provider must be one of ${PROVIDER_NAMES.join(', ')}; got ${JSON.stringify(c.provider)}`);
  }
  const provider = (c.provider as ProviderName | undefined) ?? CONTEXTUAL_DEFAULT.provider;
  if (c.model !== undefined && !(typeof c.model === 'string' && c.model)) throw bad(`.model must be a non-empty string; got ${JSON.stringify(c.model)}`);
  if (c.model === undefined && provider !== CONTEXTUAL_DEFAULT.provider) throw bad(`.model is required with provider ${provider}`);
  const model = (c.model as string | undefined) ?? CONTEXTUAL_DEFAULT.model;
  if (c.concurrency !== undefined && !(typeof c.concurrency === 'number' && Number.isInteger(c.concurrency) && c.concurrency > 0)) {
    throw bad(`.concurrency must be a positive integer; got ${JSON.stringify(c.concurrency)}`);
  }
  return { provider, model, concurrency: (c.concurrency as number | undefined) ?? CONTEXTUAL_CONCURRENCY };
}

/** The chat model of contextual chunking for a job: the host's {@link ContextualChunkingConfig}, else {@link CONTEXTUAL_DEFAULT}. */
export function contextualLlm(deps: { services: Services; logger: Logger }): { llm: PrompterLlm; concurrency: number } {
  const config = contextualConfig(deps.services);
  return { llm: prompterLlm(config.provider, config.model, deps), concurrency: config.concurrency };
}
