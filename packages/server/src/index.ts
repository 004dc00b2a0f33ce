/**
 * @quarry/server: the Unstructured workflow API's REST service over `WorkflowService` (Fastify 5, SQLite), plus the
 * legacy partition endpoint `POST /general/v0/general`.
 */
export { createServer, API_KEY_HEADERS, INVALID_KEY_DETAIL, MISSING_KEY_DETAIL, type QuarryServer, type ServerOptions } from './server.js';
export { ApiKeyRing, loadApiKeys, parseApiKeys, type LoadApiKeysOptions, type LoadedKeys } from './api-keys.js';
export { SqliteStore } from './sqlite-store.js';
export { defaultEngine } from './default-engine.js';
export { buildOpenApi, API_PREFIX } from './openapi.js';
export { STATUS_BY_CODE, pointerToLoc, problemsDetail, type ValidationDetail } from './http-errors.js';
export { LEGACY_STRATEGIES } from './routes/legacy-partition.js';
export { LEGACY_CHUNKING_STRATEGIES } from './legacy/chunk-elements.js';
export type { LegacyPartitionOptions, LegacyVlmConfig, SimilarityEmbedderConfig } from './legacy/legacy-tools.js';
export { SERVER_ERROR_CODES } from './errors.js';
