import { definePlugin, type Plugin } from '@quarry/core';
import { CONNECTORS_ERROR_CODES } from './errors.js';
import { localDestination, localSource } from './local/index.js';
import { elasticsearchDestination, elasticsearchSource, searchIndexDestination, searchIndexSource } from './search-index/index.js';

/**
 * The connectors plugin: registers the `local` and `search_index` (alias
 * `elasticsearch`) sources and destinations, and the error codes they throw. A new
 * connector is one more entry in `sources` or `destinations`.
 *
 * @example
 * ```ts
 * const registry = new Registry();
 * registry.register(connectorsPlugin);
 * registry.source('local'); // localSource
 * ```
 */
export const connectorsPlugin: Plugin = definePlugin({
  name: '@quarry/connectors',
  engine: '^0.1.0',
  sources: [localSource, searchIndexSource, elasticsearchSource],
  destinations: [localDestination, searchIndexDestination, elasticsearchDestination],
  errorCodes: CONNECTORS_ERROR_CODES,
});
