import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { type Engine, type Logger, Services } from '@quarry/core';
import { WorkflowService, type Clock, type Store, type WorkflowServiceOptions } from '@quarry/core/service';
import { PARTITION_POOL_SERVICE, PartitionPool, type PartitionPoolOptions } from '@quarry/nodes';
import { AdmissionGate, type AdmissionLoad, type AdmissionOptions } from './admission.js';
import type { ApiKeyRing } from './api-keys.js';
import { defaultEngine } from './default-engine.js';
import { httpErrorOf } from './http-errors.js';
import { LegacyTools, type LegacyPartitionOptions } from './legacy/legacy-tools.js';
import { scrubLogLine } from './log-scrub.js';
import { API_PREFIX, buildOpenApi } from './openapi.js';
import { clientErrorHandler, httpTimeoutOptions, requestTimeouts, type RequestTimeoutOptions } from './request-timeouts.js';
import type { RouteContext } from './route-context.js';
import { connectorRoutes } from './routes/connectors.js';
import { jobRoutes } from './routes/jobs.js';
import { legacyPartitionRoutes } from './routes/legacy-partition.js';
import { templateRoutes } from './routes/templates.js';
import { workflowRoutes } from './routes/workflows.js';
import { SqliteStore } from './sqlite-store.js';

/** The answer to a request without an API key (the Unstructured Platform's rule). */
export const MISSING_KEY_DETAIL = 'API key is missing, please provide an API key in the header.';
/** The answer to a request with an unknown API key (the key itself is never echoed). */
export const INVALID_KEY_DETAIL = 'API key is invalid.';
/** Headers that carry the API key; the first is the spec's name, the second the hosted Unstructured API's. */
export const API_KEY_HEADERS = ['service-api-key', 'unstructured-api-key'] as const;

// Partition processes kept for small documents: with two, small documents from several clients do
// not queue one by one while big ones hold the general processes.
const DEFAULT_SMALL_LANE_PROCESSES = 2;

/** Options of {@link createServer}. */
export interface ServerOptions {
  /** Where `quarry.db`, job files and sandboxed local connector directories live. */
  dataDir: string;
  /** Which key belongs to which workspace. */
  apiKeys: ApiKeyRing;
  /** Default: nodes and connectors plugins ({@link defaultEngine}). */
  engine?: Engine;
  /** Default: {@link SqliteStore} at `<dataDir>/quarry.db` (closed with the server). */
  store?: Store;
  /** Default: the real clock. */
  clock?: Clock;
  /** Fastify's logger option (default: info level to stdout); the API key headers and URL passwords are always redacted. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The processes that partition every document the server handles (legacy endpoint, workflow and
   * on-demand jobs), off its event loop: how many, and each document's time and memory limits.
   * Default: one process per core, 10 minutes, 2048 MB heap, 4096 MB resident, and 2 more kept for
   * small documents (`smallLaneProcesses`).
   */
  partitionPool?: Omit<PartitionPoolOptions, 'workerUrl'> & {
    /**
     * Start the processes (the small lane's too) when the server starts listening, not on the first
     * document, the lane's warming up on a tiny document of every common format; one that ends is
     * replaced at once (`quarry serve` does this).
     */
    warm?: boolean;
  };
  /**
   * A legacy request still waiting for or partitioning its documents this long after it arrived
   * (ms) is answered 422 `NODE_TIMEOUT` and its documents are withdrawn from the partition
   * processes. Default 0: none (each document still has `partitionPool.documentTimeoutMs` once it runs).
   */
  legacyDeadlineMs?: number;
  /** Further WorkflowService options (limits, concurrency, templates). */
  service?: Partial<Omit<WorkflowServiceOptions, 'engine' | 'store' | 'dataDir' | 'clock' | 'logger'>>;
  /**
   * The legacy endpoint's optional models: `similarityEmbedder` enables
   * `chunking_strategy=by_similarity`, `vlm` enables `strategy=vlm`. Without them those requests
   * answer 422 naming the option.
   */
  legacy?: LegacyPartitionOptions;
  /**
   * Bounds of the legacy endpoint's queue (documents and bytes accepted and not yet answered):
   * past them it answers 503 with `Retry-After` and code `SERVER_BUSY`. Default 64 documents, 256 MiB.
   */
  admission?: AdmissionOptions;
  /** Header, body-stall and whole-request timeouts (408 `REQUEST_TIMEOUT`). Default 30 s, 30 s, 5 min. */
  timeouts?: RequestTimeoutOptions;
}

/** A server that is set up but maybe not listening yet. */
export interface QuarryServer {
  app: FastifyInstance;
  service: WorkflowService;
  /** What the legacy endpoint's queue holds now, and how many requests it refused. */
  queue(): AdmissionLoad;
  /** The processes that partition its documents (their ids, say, to watch them). */
  pool: PartitionPool;
  /** Starts listening; resolves with the base URL of the Unstructured workflow API (`http://host:port/api/v1`). */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /** Stops listening, cancels running jobs (they end STOPPED), closes the store it opened. */
  close(): Promise<void>;
}

const REDACT = API_KEY_HEADERS.map((h) => `req.headers["${h}"]`).concat(['req.headers.authorization']);

function loggerOption(option: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (option === false) return false;
  const base = option === undefined || option === true ? {} : (option as Record<string, unknown>);
  const hooks = (base.hooks ?? {}) as { streamWrite?: (line: string) => string };
  const own = hooks.streamWrite;
  // Every line, whoever wrote it, loses the passwords of URLs it quotes.
  const streamWrite = own ? (line: string): string => scrubLogLine(own(line)) : scrubLogLine;
  return { level: 'info', ...base, hooks: { ...hooks, streamWrite }, redact: { paths: REDACT, censor: '********' } };
}

/** A component's log lines go to Fastify's logger. */
function componentLogger(app: FastifyInstance, component: string): Logger {
  const log = app.log.child({ component });
  return {
    debug: (m, f) => log.debug(f ?? {}, m),
    info: (m, f) => log.info(f ?? {}, m),
    warn: (m, f) => log.warn(f ?? {}, m),
    error: (m, f) => log.error(f ?? {}, m),
  };
}

/**
 * Builds the REST service: Fastify 5 with every Unstructured workflow API path and the Unstructured Platform's other paths under
 * `/api/v1` (collections with or without a trailing slash), `service-api-key` (or
 * `unstructured-api-key`) auth with one workspace per key, `GET /api/v1/openapi.json`, and the
 * legacy `POST /general/v0/general`.
 *
 * @example
 * ```ts
 * const server = await createServer({ dataDir: './data', apiKeys: new ApiKeyRing([['my-secret-key', 'acme']]) });
 * const baseUrl = await server.listen({ port: 8080 });
 * ```
 */
export async function createServer(options: ServerOptions): Promise<QuarryServer> {
  const dataDir = path.resolve(options.dataDir);
  const ownStore = !options.store;
  const store = options.store ?? SqliteStore.open(path.join(dataDir, 'quarry.db'));
  const limits = { maxFiles: options.service?.inputLimits?.maxFiles ?? 10, maxFileBytes: options.service?.inputLimits?.maxFileBytes ?? 10 * 1024 * 1024 };
  const timeouts = requestTimeouts(options.timeouts);
  const app = Fastify({
    logger: loggerOption(options.logger),
    routerOptions: { ignoreTrailingSlash: true },
    http: httpTimeoutOptions(timeouts),
    requestTimeout: timeouts.requestTimeoutMs,
    clientErrorHandler: clientErrorHandler(timeouts),
  });
  const admission = new AdmissionGate(options.admission, limits.maxFileBytes * limits.maxFiles);
  const pool = new PartitionPool({ ...options.partitionPool, smallLaneProcesses: options.partitionPool?.smallLaneProcesses ?? DEFAULT_SMALL_LANE_PROCESSES });
  const services = options.service?.services?.clone() ?? new Services();
  services.set(PARTITION_POOL_SERVICE, pool);
  const engine = options.engine ?? defaultEngine();
  let service: WorkflowService;
  let legacy: LegacyTools | undefined;
  try {
    legacy = await LegacyTools.open(options.legacy ?? {}, componentLogger(app, 'legacy'));
    service = await WorkflowService.open({
      ...options.service,
      services,
      engine,
      store,
      dataDir,
      inputLimits: limits,
      logger: componentLogger(app, 'service'),
      ...(options.clock ? { clock: options.clock } : {}),
    });
  } catch (e) {
    await pool.close();
    await legacy?.close();
    if (ownStore) await store.close();
    throw e;
  }
  const legacyTools = legacy;
  const ctx: RouteContext = {
    service,
    stagingDir: path.join(dataDir, 'uploads'),
    uploadLimits: { ...limits, bodyTimeoutMs: timeouts.bodyTimeoutMs },
    bodyReads: admission.reads,
  };

  // Empty JSON bodies are read as "no body" (a run may be POSTed with a JSON content type and nothing else).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(Object.assign(new SyntaxError((e as Error).message), { statusCode: 400 }), undefined);
    }
  });
  await app.register(multipart, {
    limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fields: 200, fieldSize: 1024 * 1024 },
    throwFileSizeLimit: true,
  });

  app.decorateRequest('workspace', '');
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config.public) return;
    let key: string | undefined;
    for (const h of API_KEY_HEADERS) {
      const v = req.headers[h];
      if (typeof v === 'string' && v.trim()) {
        key = v.trim();
        break;
      }
    }
    if (!key) return reply.code(401).send({ detail: MISSING_KEY_DETAIL });
    const workspace = options.apiKeys.workspaceOf(key);
    if (!workspace) return reply.code(401).send({ detail: INVALID_KEY_DETAIL });
    req.workspace = workspace;
  });

  app.setErrorHandler((err, req, reply) => {
    const mapped = httpErrorOf(err);
    // A request cut short (408) leaves the rest of its body unread: the connection cannot be reused.
    if (mapped?.status === 408) reply.header('connection', 'close');
    if (mapped) return reply.code(mapped.status).send(mapped.body);
    req.log.error({ err }, 'request failed');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ detail: 'Not Found' }));

  const openapi = buildOpenApi(engine.registry);
  app.get(`${API_PREFIX}/openapi.json`, { config: { public: true } }, async () => openapi);
  app.get('/healthcheck', { config: { public: true } }, async () => ({ healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!' }));
  await app.register(
    async (api) => {
      workflowRoutes(api, ctx);
      connectorRoutes(api, ctx);
      jobRoutes(api, ctx);
      templateRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );
  legacyPartitionRoutes(app, ctx, legacyTools, { pool, maxFileBytes: limits.maxFileBytes, admission, deadlineMs: options.legacyDeadlineMs ?? 0 });

  let closed = false;
  return {
    app,
    service,
    queue: () => admission.load(),
    pool,
    async listen(listenOptions = {}) {
      const address = await app.listen({ port: listenOptions.port ?? 8080, host: listenOptions.host ?? '127.0.0.1' });
      if (options.partitionPool?.warm) pool.warm();
      return `${address.replace('[::1]', 'localhost')}${API_PREFIX}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await service.close();
      await pool.close();
      await legacyTools.close();
      if (ownStore) await store.close();
    },
  };
}
