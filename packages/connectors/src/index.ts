/**
 * @quarry/connectors: connector plugins. `local` (filesystem source and destination) and
 * `search_index` (Elasticsearch source and destination); each
 * connector lives in its own folder and is listed once in `plugin.ts`.
 *
 * Every name here is public on purpose (`api/connectors.api.md` is its report, checked by a test).
 */
export { localSource, type LocalSourceConfig } from './local/local-source.js';
export { OUTPUT_SUFFIX, localDestination, outputPathFor, serializeElements, type LocalDestinationConfig } from './local/local-destination.js';
export { writeFileAtomic } from './local/atomic-write.js';
export { DEFAULT_BATCH_SIZE_BYTES, ELASTICSEARCH_TYPE_ALIAS, SEARCH_INDEX_TYPE, searchIndexConfig, type SearchIndexConfig } from './search-index/config.js';
export { searchDocument, type SearchDocument } from './search-index/search-document.js';
export {
  SEARCH_INDEX_WRITE_BEHIND,
  createSearchIndexDestination,
  searchIndexDestination,
  type SearchIndexDestination,
} from './search-index/search-index-destination.js';
export { createSearchIndexSource, searchIndexSource, type SearchIndexSource } from './search-index/search-index-source.js';
export { connectorsPlugin } from './plugin.js';
export { CONNECTORS_ERROR_CODES } from './errors.js';
