import { z } from 'zod';

/** Remote embedder subtypes: REFERENCE.md d4's five plus `openai` (any OpenAI-compatible endpoint). */
export const REMOTE_EMBED_SUBTYPES = ['azure_openai', 'bedrock', 'ibm', 'openai', 'togetherai', 'voyageai'] as const;
/** A remote embedder subtype. */
export type RemoteEmbedSubtype = (typeof REMOTE_EMBED_SUBTYPES)[number];

function strict<S extends z.ZodRawShape>(label: string, shape: S) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown setting${iss.keys.length > 1 ? 's' : ''} ${iss.keys.map((k) => JSON.stringify(k)).join(', ')} for ${label}; allowed: ${allowed}`
        : iss.code === 'invalid_type'
          ? `${label} settings must be an object`
          : undefined,
  });
}

const int = (min: number, max: number, what: string) => z.number().int().min(min).max(max).describe(what);
const optionalString = (what: string) => z.string().min(1).nullish().describe(what);

/** Settings every remote embedder takes. Omitted optional values fall back to the environment or defaults. */
const commonShape = {
  model_name: z.string({ error: 'model_name is required: an embedding model of the subtype (provider)' }).min(1).describe('embedding model of the subtype (provider)'),
  api_key: optionalString('API key; default: the provider environment variable'),
  base_url: optionalString('API endpoint; default: the provider environment variable or the vendor URL'),
  batch_size: int(1, 2048, 'most inputs per request').optional(),
  max_batch_tokens: int(1, 10_000_000, 'most (estimated) tokens per request').optional(),
  flush_ms: int(0, 60_000, 'how long a partial batch waits for more chunks (ms)').default(25),
  concurrency: int(1, 64, 'requests in flight at once').default(4),
  requests_per_minute: int(1, 10_000_000, "the key's request budget").optional(),
  tokens_per_minute: int(1, 1_000_000_000, "the key's token budget").optional(),
  timeout_ms: int(100, 3_600_000, 'time limit of one attempt (ms)').default(60_000),
  max_retries: int(0, 20, 'retries of a failed request (429, 5xx, timeouts)').default(5),
};

const extraShapes = {
  azure_openai: { api_version: optionalString('Azure OpenAI API version; default OPENAI_API_VERSION or 2024-10-21'), deployment: optionalString('Azure deployment name; default model_name') },
  bedrock: { region: optionalString('AWS region; default AWS_REGION or us-east-1') },
  ibm: { project_id: optionalString('watsonx.ai project id; default WATSONX_AI_PROJECT_ID'), space_id: optionalString('watsonx.ai space id; default WATSONX_AI_SPACE_ID') },
  openai: {},
  togetherai: {},
  voyageai: {},
} as const satisfies Record<RemoteEmbedSubtype, z.ZodRawShape>;

/** Settings schema of a remote embedder subtype (strict: unknown keys are rejected, naming the allowed ones). */
export function remoteEmbedSettings(subtype: RemoteEmbedSubtype) {
  return strict(`embed/${subtype}`, { ...commonShape, ...extraShapes[subtype] });
}

/** Parsed settings of a remote embedder (the union of every subtype's keys). */
export interface RemoteEmbedSettings {
  model_name: string;
  api_key?: string | null;
  base_url?: string | null;
  batch_size?: number;
  max_batch_tokens?: number;
  flush_ms: number;
  concurrency: number;
  requests_per_minute?: number;
  tokens_per_minute?: number;
  timeout_ms: number;
  max_retries: number;
  api_version?: string | null;
  deployment?: string | null;
  region?: string | null;
  project_id?: string | null;
  space_id?: string | null;
}

/** ONNX weight variants transformers.js can load (`onnx/model.onnx`, `onnx/model_quantized.onnx`, ...). */
export const LOCAL_DTYPES = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16'] as const;

/** Settings of the `local` embedder (transformers.js, ONNX model from a directory). */
export const localEmbedSettings = strict('embed/local', {
  model_path: z.string({ error: 'model_path is required: a directory holding config.json, tokenizer.json and onnx/model.onnx' }).min(1).describe('model directory'),
  model_name: optionalString('name recorded for the model; default the directory name'),
  pooling: z.enum(['mean', 'cls']).default('mean').describe('how token vectors become one vector'),
  normalize: z.boolean().default(true).describe('scale vectors to unit length'),
  batch_size: int(1, 1024, 'most chunks per model call').default(32),
  max_batch_tokens: int(1, 10_000_000, 'most tokens per model call; default: no limit besides batch_size').optional(),
  dtype: z.enum(LOCAL_DTYPES).default('fp32').describe('which ONNX weight file to load'),
  flush_ms: int(0, 60_000, 'how long a partial batch waits for more chunks while the model is idle (ms)').default(0),
});

/** Parsed `local` embedder settings. */
export type LocalEmbedSettings = z.output<typeof localEmbedSettings>;
