import path from 'node:path';
import { normalizeProvider } from '@quarry/nodes';
import { createServer, loadApiKeys, type LegacyPartitionOptions, type SimilarityEmbedderConfig } from '@quarry/server';
import { partitionPoolOptions, type PartitionProcessFlags } from '../partition-processes.js';
import { serverLimits, type ServeLimitFlags } from '../serve-limits.js';
import { partitionSchedulingPoolOptions, type PartitionSchedulingFlags } from '../partition-scheduling.js';
import { stopOnSignals } from '../stop-on-signals.js';
import { UserError } from '../user-error.js';

/** Options of `quarry serve`. */
export interface ServeCommandOptions extends PartitionProcessFlags, ServeLimitFlags, PartitionSchedulingFlags {
  /** Port to listen on (default 8080; 0 picks a free one). */
  port?: number | string;
  /** Interface to bind (default 127.0.0.1; use 0.0.0.0 to accept remote clients). */
  host?: string;
  /** Where `quarry.db`, job files and local connector directories live (default `$QUARRY_DATA_DIR` or `./quarry-data`). */
  dataDir?: string;
  /** A file of `key=workspace` lines; else `QUARRY_API_KEYS`, else `<data-dir>/api-keys` (generated when missing). */
  keysFile?: string;
  /** Log level of the JSON request log on stdout (default info). */
  logLevel?: string;
  /**
   * Embedding model of the legacy endpoint's `chunking_strategy=by_similarity`: a local ONNX model
   * directory, or an embedder as JSON (`{"subtype": "openai", "model_name": "text-embedding-3-small"}`).
   */
  similarityEmbedder?: string;
  /** Vision model provider of the legacy endpoint's `strategy=vlm` (anthropic, bedrock, openai, vertexai); its key comes from the provider's environment variable. */
  vlmProvider?: string;
  /** Model of `strategy=vlm` when a request names none (default: the provider's default VLM model). */
  vlmModel?: string;
  /** Endpoint of the VLM provider, e.g. an OpenAI-compatible base URL. */
  vlmBaseUrl?: string;
}

/** `--similarity-embedder`: a directory is a local model; a JSON object names any embedder. */
export function similarityEmbedderOption(value: string): SimilarityEmbedderConfig {
  const v = value.trim();
  if (!v.startsWith('{')) return { subtype: 'local', model_path: path.resolve(v) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch (e) {
    throw new UserError(`--similarity-embedder is neither a directory nor valid JSON: ${(e as Error).message}`);
  }
  const subtype = (parsed as { subtype?: unknown }).subtype;
  if (typeof subtype !== 'string' || !subtype)
    throw new UserError('--similarity-embedder JSON needs a "subtype" (local, openai, azure_openai, bedrock, togetherai, voyageai or ibm)');
  return parsed as SimilarityEmbedderConfig;
}

/** The legacy endpoint's models from the serve flags. */
function legacyOptions(opts: ServeCommandOptions): LegacyPartitionOptions {
  const legacy: LegacyPartitionOptions = {};
  if (opts.similarityEmbedder) legacy.similarityEmbedder = similarityEmbedderOption(opts.similarityEmbedder);
  if (opts.vlmProvider) {
    const provider = normalizeProvider(opts.vlmProvider);
    if (!provider) throw new UserError(`--vlm-provider must be anthropic, bedrock, openai or vertexai, got ${opts.vlmProvider}`);
    legacy.vlm = { provider, ...(opts.vlmModel ? { model: opts.vlmModel } : {}), ...(opts.vlmBaseUrl ? { baseUrl: opts.vlmBaseUrl } : {}) };
  } else if (opts.vlmModel || opts.vlmBaseUrl) {
    throw new UserError('--vlm-model and --vlm-base-url need --vlm-provider');
  }
  return legacy;
}

/** A running `quarry serve`. */
export interface ServeHandle {
  /** Base URL of the workflow API, e.g. `http://127.0.0.1:8080/api/v1`. */
  url: string;
  /** Resolves once the server has stopped (SIGINT, SIGTERM or {@link ServeHandle.close}). */
  closed: Promise<void>;
  /** Stops the server: running jobs end STOPPED, the database is closed. */
  close(): Promise<void>;
}

/**
 * `quarry serve [--port N] [--host H] [--data-dir DIR] [--keys-file F] [--similarity-embedder M]
 * [--vlm-provider P [--vlm-model M] [--vlm-base-url U]] [--max-upload-mb N] [--max-queued-documents N]
 * [--max-queued-mb N] [--retry-after S] [--body-reads N] [--headers-timeout S] [--body-timeout S] [--request-timeout S]
 * [--small-document-mb MB] [--small-lane-processes N] [--max-documents-per-process N] [--idle-recycle S]
 * [--partition-deadline S] [--no-background-priority]`: starts the REST service and keeps it
 * running until SIGINT or SIGTERM. The banner goes to stderr; stdout carries the JSON request log.
 * API keys are never printed.
 */
export async function serveCommand(opts: ServeCommandOptions = {}): Promise<ServeHandle> {
  const dataDir = path.resolve(opts.dataDir ?? process.env.QUARRY_DATA_DIR ?? 'quarry-data');
  const port = opts.port === undefined ? 8080 : Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port must be an integer from 0 to 65535, got ${String(opts.port)}`);
  const legacy = legacyOptions(opts);
  const { keys, source } = await loadApiKeys({ dataDir, ...(opts.keysFile ? { keysFile: opts.keysFile } : {}) });
  const server = await createServer({
    dataDir,
    apiKeys: keys,
    logger: { level: opts.logLevel ?? 'info' },
    legacy,
    partitionPool: { ...partitionPoolOptions(opts), ...partitionSchedulingPoolOptions(opts), warm: true },
    ...(opts.partitionDeadline ? { legacyDeadlineMs: opts.partitionDeadline * 1000 } : {}),
    ...serverLimits(opts),
  });
  let url: string;
  try {
    url = await server.listen({ port, host: opts.host ?? '127.0.0.1' });
  } catch (e) {
    await server.close();
    throw e;
  }
  const { closed, close } = stopOnSignals(async () => {
    await server.close();
    process.stderr.write('quarry serve: stopped\n');
  });
  process.stderr.write(`quarry serve: listening on ${url} (workspaces: ${keys.workspaces().join(', ')}; API keys from ${source}; data in ${dataDir})\n`);
  return { url, closed, close };
}
