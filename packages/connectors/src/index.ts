/**
 * @quarry/connectors: connector plugins. `local` (filesystem source and destination) and
 * `search_index` (Elasticsearch source and destination); each
 * connector lives in its own folder and is listed once in `plugin.ts`.
 */
export * from './local/index.js';
export * from './search-index/index.js';
export { connectorsPlugin } from './plugin.js';
export { CONNECTORS_ERROR_CODES } from './errors.js';
