import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { providerError } from '../providers/errors.js';
import type { EmbedBackend } from './batch-operator.js';
import { importOptional } from '../optional-dependency.js';

/** ONNX weight variants transformers.js can load (`onnx/model.onnx`, `onnx/model_quantized.onnx`, ...). */
export const LOCAL_DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16'] as const;
/** An ONNX weight variant. */
export type LocalDtype = (typeof LOCAL_DTYPES)[number];

/** What loading a local model reads of the `local` embedder's settings. */
export interface LocalModelSettings {
  model_path: string;
  model_name?: string | null | undefined;
  pooling: 'mean' | 'cls';
  normalize: boolean;
  dtype: LocalDtype;
}

/** Facts about a local model, read from its files when it is loaded. */
export interface LocalModelInfo {
  model_name: string;
  dimensions: number;
  /** Largest input in tokens (special tokens included). */
  max_tokens: number;
}

/** A loaded local model: a backend for the batching operator, its facts, and a way to free it. */
export interface LocalModel {
  info: LocalModelInfo;
  backend: EmbedBackend<number[]>;
  /** The transformers.js model behind it: the same object for every lease of the same weights. */
  readonly instance: object;
  /** Releases this lease; the weights are disposed once no lease is left and they stayed unused a while. */
  close(): Promise<void>;
}

/** Options of {@link loadLocalModel}. */
export interface LoadLocalModelOptions {
  /** How long the weights stay loaded after the last lease is released (default {@link KEEP_WARM_MS}; 0: dispose at once). */
  keepWarmMs?: number;
}

/** Tokenizer lengths of this size mean "no limit configured" (transformers' VERY_LARGE_INTEGER). */
const UNSET_LENGTH = 1e9;

function readJson(file: string): Record<string, unknown> | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 && v < UNSET_LENGTH ? v : undefined;
}

const ONNX_SUFFIX: Record<LocalDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  bnb4: '_bnb4',
  q4f16: '_q4f16',
};

/**
 * transformers.js reads its model directory from the global `env`; loads are serialized so that
 * two local embedders with different directories never see each other's setting.
 */
let loadLock: Promise<unknown> = Promise.resolve();

function unavailable(dir: string, why: string, cause?: unknown): Error {
  return providerError('EMBED_MODEL_UNAVAILABLE', `local embedding model at ${dir}: ${why}`, { model_path: dir }, cause);
}

/**
 * Loads an ONNX sentence-embedding model with transformers.js from a local directory (never from
 * the network: `env.allowRemoteModels = false`). Dimensions come from `config.json`
 * (`hidden_size`), the token limit from the smallest of `max_position_embeddings`, the tokenizer's
 * `model_max_length` and `sentence_bert_config.json`'s `max_seq_length`. Each input is tokenized
 * once: the ids counted for batching are the ids fed to the model. The weights are shared by every
 * lease of the same directory and dtype in the process, and kept warm between jobs.
 */
export async function loadLocalModel(settings: LocalModelSettings, options: LoadLocalModelOptions = {}): Promise<LocalModel> {
  const dir = path.resolve(settings.model_path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw unavailable(dir, 'no such directory');
  const config = readJson(path.join(dir, 'config.json'));
  if (!config) throw unavailable(dir, 'config.json is missing or not JSON');
  if (!existsSync(path.join(dir, 'tokenizer.json'))) throw unavailable(dir, 'tokenizer.json is missing');
  const onnxFile = path.join(dir, 'onnx', `model${ONNX_SUFFIX[settings.dtype]}.onnx`);
  if (!existsSync(onnxFile)) throw unavailable(dir, `onnx/${path.basename(onnxFile)} is missing (dtype ${settings.dtype})`);
  const dimensions = positive(config.hidden_size) ?? positive(config.d_model) ?? positive(config.dim);
  if (dimensions === undefined) throw unavailable(dir, 'config.json gives no hidden_size');

  const tf = await importOptional<typeof import('@huggingface/transformers')>('@huggingface/transformers', 'a local embedding model');
  const lease = await acquireWeights(tf, dir, settings.dtype, onnxFile, options.keepWarmMs ?? KEEP_WARM_MS);
  const { tokenizer, model } = lease.weights;

  const sbert = readJson(path.join(dir, 'sentence_bert_config.json'));
  const limits = [positive(config.max_position_embeddings), positive(tokenizer.model_max_length), positive(sbert?.max_seq_length)].filter(
    (v): v is number => v !== undefined,
  );
  const max_tokens = limits.length ? Math.min(...limits) : 512;
  const padId = typeof tokenizer.pad_token_id === 'number' ? tokenizer.pad_token_id : 0;
  const info: LocalModelInfo = { model_name: settings.model_name ?? path.basename(dir), dimensions, max_tokens };

  const backend: EmbedBackend<number[]> = {
    label: `local model ${info.model_name}`,
    dimensions,
    maxInputTokens: max_tokens,
    prepare: (text) => {
      const ids = tokenizer.encode(text);
      return { tokens: ids.length, payload: ids };
    },
    embed: async (batch, _tokens, signal) => {
      if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
      const rows = batch.length;
      const cols = Math.max(...batch.map((ids) => ids.length));
      const ids = new BigInt64Array(rows * cols).fill(BigInt(padId));
      const mask = new BigInt64Array(rows * cols);
      batch.forEach((row, r) => {
        for (let c = 0; c < row.length; c++) {
          ids[r * cols + c] = BigInt(row[c]!);
          mask[r * cols + c] = 1n;
        }
      });
      const attention_mask = new tf.Tensor('int64', mask, [rows, cols]);
      const input_ids = new tf.Tensor('int64', ids, [rows, cols]);
      // token_type_ids (all zero for one sentence) are added by transformers.js when the graph wants them.
      const out = (await model({ input_ids, attention_mask })) as Record<string, Tensor | undefined>;
      const hidden = out.last_hidden_state ?? out.token_embeddings ?? out.logits;
      if (!hidden) throw providerError('PROVIDER_ERROR', `${backend.label} produced no last_hidden_state`);
      let pooled = settings.pooling === 'mean' ? tf.mean_pooling(hidden, attention_mask) : hidden.slice(null, 0);
      if (settings.normalize) pooled = pooled.normalize(2, -1);
      const vectors = pooled.tolist() as number[][];
      for (const t of Object.values(out)) t?.dispose();
      return vectors;
    },
  };

  return {
    info,
    backend,
    instance: model,
    close: () => lease.release(),
  };
}

/** A model and tokenizer loaded once per directory and dtype, shared by every node that uses them. */
interface Weights {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
}

interface SharedWeights {
  weights: Promise<Weights>;
  users: number;
  idle?: NodeJS.Timeout;
}

/** How long loaded weights stay in memory after their last user closed (the next job reuses them). */
export const KEEP_WARM_MS = 30_000;

const shared = new Map<string, SharedWeights>();

/**
 * Leases the weights of a model directory: loaded on first use, shared by every embedder and
 * similarity chunker of every job in the process, disposed `keepWarmMs` after the last lease is
 * released. The key holds the ONNX file's size and modification time, so a replaced model is
 * loaded afresh.
 */
async function acquireWeights(
  tf: typeof import('@huggingface/transformers'),
  dir: string,
  dtype: LocalDtype,
  onnxFile: string,
  keepWarmMs: number,
): Promise<{ weights: Weights; release: () => Promise<void> }> {
  const st = statSync(onnxFile);
  const key = `${dir}\0${dtype}\0${st.size}\0${st.mtimeMs}`;
  let entry = shared.get(key);
  if (!entry) {
    const weights = loadLock.then(async () => {
      tf.env.allowRemoteModels = false;
      tf.env.allowLocalModels = true;
      tf.env.localModelPath = `${path.dirname(dir)}${path.sep}`;
      const id = path.basename(dir);
      const tokenizer = await tf.AutoTokenizer.from_pretrained(id, { local_files_only: true });
      const model = await tf.AutoModel.from_pretrained(id, { local_files_only: true, dtype, device: 'cpu' });
      return { tokenizer, model };
    });
    loadLock = weights.catch(() => undefined);
    entry = { weights, users: 0 };
    shared.set(key, entry);
  }
  const e = entry;
  e.users++;
  clearTimeout(e.idle);
  let weights: Weights;
  try {
    weights = await e.weights;
  } catch (err) {
    e.users--;
    if (shared.get(key) === e) shared.delete(key);
    throw unavailable(dir, `transformers.js could not load it: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  let released = false;
  return {
    weights,
    release: async () => {
      if (released) return;
      released = true;
      e.users--;
      if (e.users > 0) return;
      const dispose = async (): Promise<void> => {
        if (e.users > 0 || shared.get(key) !== e) return;
        shared.delete(key);
        await weights.model.dispose();
      };
      if (keepWarmMs <= 0) return dispose();
      e.idle = setTimeout(() => void dispose(), keepWarmMs);
      e.idle.unref();
    },
  };
}
