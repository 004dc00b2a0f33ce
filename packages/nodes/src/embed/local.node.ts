import { defineNode, lazySchema, quarryError, strictSettings, zod, type NodeCreateContext, type NodeDefinition } from '@quarry/core';
import type { z } from 'zod';
import { CHUNK_MAX_CHARS_DEFAULT } from '../chunk/options.js';
import { maxCharactersFor } from './embedding-models.js';
import { LOCAL_DTYPES, loadLocalModel, type LocalModelInfo } from './local-model.js';

const int = (min: number, max: number, what: string) => zod().number().int().min(min).max(max).describe(what);

/** Settings of the `local` embedder (transformers.js, ONNX model from a directory). */
export const localEmbedSettings = lazySchema(() =>
  strictSettings('embed/local', {
    model_path: zod()
      .string({ error: 'model_path is required: a directory holding config.json, tokenizer.json and onnx/model.onnx' })
      .min(1)
      .describe('model directory'),
    model_name: zod().string().min(1).nullish().describe('name recorded for the model; default the directory name'),
    pooling: zod().enum(['mean', 'cls']).default('mean').describe('how token vectors become one vector'),
    normalize: zod().boolean().default(true).describe('scale vectors to unit length'),
    batch_size: int(1, 1024, 'most chunks per model call').default(32),
    max_batch_tokens: int(1, 10_000_000, 'most tokens per model call; default: no limit besides batch_size').optional(),
    dtype: zod().enum(LOCAL_DTYPES).default('fp32').describe('which ONNX weight file to load'),
    flush_ms: int(0, 60_000, 'how long a partial batch waits for more chunks while the model is idle (ms)').default(0),
  }),
);

/** Parsed `local` embedder settings. */
export type LocalEmbedSettings = z.output<ReturnType<typeof localEmbedSettings>>;

/**
 * Node ordering rule 5 for the local model, whose limits are known only once its files
 * are read: the chunker's max_characters (or the library default when unset) must not exceed the
 * model's recommended chunk size (max tokens x 3.5).
 */
function checkChunkerFits(ctx: NodeCreateContext, info: LocalModelInfo): void {
  const index = ctx.nodes.findIndex((n) => n.type === 'chunk');
  if (index < 0) return;
  const raw = ctx.nodes[index]!.settings?.max_characters;
  const unset = raw === undefined || raw === null;
  if (!unset && typeof raw !== 'number') return;
  const max = unset ? CHUNK_MAX_CHARS_DEFAULT : raw;
  const limit = maxCharactersFor(info.max_tokens);
  if (max > limit) {
    const message = `the chunker's max_characters ${max}${unset ? ' (unset: the library default)' : ''} exceeds ${limit}, the recommended maximum chunk size of local embedding model ${info.model_name} (${info.max_tokens} tokens x 3.5); set max_characters to ${limit} or less`;
    throw quarryError('WORKFLOW_INVALID', message, {
      details: { problems: [{ code: 'order.max_characters_exceeds_model', path: `/workflow_nodes/${index}/settings/max_characters`, message }] },
    });
  }
}

/**
 * `local`: embeds chunks with an ONNX sentence-embedding model run by transformers.js from a local
 * directory (never downloading). Dimensions and the token limit are read from the model's files
 * when the job starts; one batch runs at a time (ONNX Runtime already uses every core), and its
 * chunks are tokenized just before it runs.
 */
export const localEmbedNode: NodeDefinition<LocalEmbedSettings> = defineNode<LocalEmbedSettings>({
  type: 'embed',
  subtype: 'local',
  description: 'embeds chunks with a local ONNX model (transformers.js), offline',
  get settings() {
    return localEmbedSettings();
  },
  create: async (settings, ctx) => {
    const model = await loadLocalModel(settings);
    try {
      checkChunkerFits(ctx, model.info);
    } catch (e) {
      await model.close();
      throw e;
    }
    const options = {
      maxInputs: settings.batch_size,
      maxTokens: settings.max_batch_tokens ?? Number.POSITIVE_INFINITY,
      flushMs: settings.flush_ms,
      concurrency: 1,
      // Tokenizing next to inference would take cores from ONNX Runtime's own threads.
      prepareOnDispatch: true,
    };
    // The batching operator (rxjs) loads with the first embedder, not with the plugin.
    const { embedOperator } = await import('./batch-operator.js');
    return { operator: (octx) => embedOperator(model.backend, options, octx), close: () => model.close() };
  },
});
