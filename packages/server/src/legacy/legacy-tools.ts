import { quarryError, type Element, type Logger, Services } from '@quarry/core';
import {
  createSimilarityEmbedder,
  modelProviderMismatch,
  normalizeProvider,
  VLM_DEFAULT_MODELS,
  type ModelProvider as Provider,
  partitionWithVlm,
  providerPool,
  type PartitionFileRequest,
  type ProviderPool,
  type SimilarityEmbedder,
} from '@quarry/nodes';
import type { LegacyEmbed } from './chunk-elements.js';
import type { LegacyForm } from './form-params.js';

/**
 * The embedding model of `chunking_strategy=by_similarity`: an embedder subtype and that
 * embedder's settings, as an embed node takes them, e.g. `{ subtype: 'local', model_path:
 * './models/all-MiniLM-L6-v2' }` or `{ subtype: 'openai', model_name: 'text-embedding-3-small' }`.
 */
export interface SimilarityEmbedderConfig {
  /** `local` (an ONNX model directory, run offline) or `openai`, `azure_openai`, `bedrock`, `togetherai`, `voyageai`, `ibm`. */
  subtype: string;
  /** The embedder's own settings (`model_path` for local; `model_name`, `api_key`, ... for providers). */
  [setting: string]: unknown;
}

/** The vision model of `strategy=vlm`. */
export interface LegacyVlmConfig {
  /** `anthropic`, `bedrock`, `openai` or `vertexai`. */
  provider: Provider;
  /** Model used when a request names none (`vlm_model`); default: the provider's default VLM model. */
  model?: string;
  /**
   * Default: the provider's environment variable (`ANTHROPIC_API_KEY`, `OPENAI_API_KEY`,
   * `GOOGLE_API_KEY`, AWS credentials). For bedrock: `ACCESS_KEY_ID:SECRET_ACCESS_KEY`.
   */
  apiKey?: string;
  /** The provider's endpoint, e.g. an OpenAI-compatible base URL; default: the SDK's (or its environment variable). */
  baseUrl?: string;
}

/** What the legacy endpoint may use beyond the partitioners: both are off unless configured. */
export interface LegacyPartitionOptions {
  /** Enables `chunking_strategy=by_similarity`; loaded when the server starts. */
  similarityEmbedder?: SimilarityEmbedderConfig;
  /** Enables `strategy=vlm`. */
  vlm?: LegacyVlmConfig;
}

// The SDK's `vlm_model_provider` values that name one of our providers under another name.
const SDK_PROVIDER_NAMES: Readonly<Record<string, Provider>> = { anthropic_bedrock: 'bedrock', google: 'vertexai' };

/** The legacy endpoint's configured embedder and vision model, and the provider pool they share. */
export class LegacyTools {
  private constructor(
    private readonly embedder: SimilarityEmbedder | undefined,
    private readonly vlm: (LegacyVlmConfig & { model: string }) | undefined,
    private readonly pool: ProviderPool,
  ) {}

  /**
   * Checks the options and loads the embedder (so a wrong model path fails at start-up, not on the
   * first request).
   *
   * @throws QuarryError `SETTINGS_INVALID` for an unknown provider or embedder, `EMBED_MODEL_UNAVAILABLE` when a local model cannot be loaded.
   */
  static async open(options: LegacyPartitionOptions, logger: Logger): Promise<LegacyTools> {
    const services = new Services();
    let vlm: (LegacyVlmConfig & { model: string }) | undefined;
    if (options.vlm) {
      const provider = normalizeProvider(options.vlm.provider);
      if (!provider)
        throw quarryError(
          'SETTINGS_INVALID',
          `legacy.vlm.provider must be anthropic, bedrock, openai or vertexai, got ${JSON.stringify(options.vlm.provider)}`,
        );
      vlm = { ...options.vlm, provider, model: options.vlm.model ?? VLM_DEFAULT_MODELS[provider] };
    }
    const embedder = options.similarityEmbedder
      ? await createSimilarityEmbedder((({ subtype, ...settings }) => ({ subtype: String(subtype), settings }))(options.similarityEmbedder), {
          services,
          logger,
        })
      : undefined;
    return new LegacyTools(embedder, vlm, providerPool(services));
  }

  /** The 422 detail for a request this server cannot serve as configured; undefined when it can. */
  problem(form: LegacyForm): string | undefined {
    if (form.chunking_strategy?.toLowerCase() === 'by_similarity' && !this.embedder) {
      return 'chunking_strategy=by_similarity needs an embedding model and this server has none: start it with `quarry serve --similarity-embedder <model directory or JSON>` (ServerOptions.legacy.similarityEmbedder)';
    }
    if (form.strategy?.toLowerCase() !== 'vlm') return undefined;
    if (!this.vlm) {
      return 'strategy=vlm needs a vision model provider and this server has none: start it with `quarry serve --vlm-provider <anthropic|bedrock|openai|vertexai>` (ServerOptions.legacy.vlm)';
    }
    const asked = form.vlm_model_provider?.toLowerCase();
    if (asked !== undefined && (SDK_PROVIDER_NAMES[asked] ?? normalizeProvider(asked)) !== this.vlm.provider) {
      return `vlm_model_provider ${asked} is not available on this server; its vision model provider is ${this.vlm.provider}`;
    }
    return form.vlm_model ? modelProviderMismatch(this.vlm.provider, form.vlm_model) : undefined;
  }

  /** The embedder of `by_similarity`, when configured. */
  get embed(): LegacyEmbed | undefined {
    const embedder = this.embedder;
    return embedder ? (texts, signal) => embedder.embed(texts, signal) : undefined;
  }

  /**
   * Partitions with the configured vision model (every PDF page and image read by it; other formats
   * with hi_res), the model being the form's `vlm_model` or the configured one.
   */
  async partitionVlm(bytes: Uint8Array, request: PartitionFileRequest, form: LegacyForm): Promise<Element[]> {
    const vlm = this.vlm;
    if (!vlm) throw quarryError('SETTINGS_INVALID', 'strategy=vlm is not configured on this server');
    return partitionWithVlm(bytes, {
      filename: request.filename,
      ...(request.filetype ? { filetype: request.filetype } : {}),
      provider: vlm.provider,
      ...(vlm.apiKey ? { provider_api_key: vlm.apiKey } : {}),
      ...(vlm.baseUrl ? { provider_base_url: vlm.baseUrl } : {}),
      model: form.vlm_model ?? vlm.model,
      output_format: 'text/html',
      format_html: true,
      unique_element_ids: request.unique_element_ids ?? false,
      ...(request.starting_page_number === undefined ? {} : { starting_page_number: request.starting_page_number }),
      is_dynamic: false,
      allow_fast: false,
      pool: this.pool,
    });
  }

  /** Frees the embedder. */
  async close(): Promise<void> {
    await this.embedder?.close();
  }
}
