export { searchIndexConfig, DEFAULT_BATCH_SIZE_BYTES, SEARCH_INDEX_TYPE, ELASTICSEARCH_TYPE_ALIAS, type SearchIndexConfig } from './config.js';
export { encodeApiKey, resolveAuth, type AuthForm, type ResolvedAuth } from './auth.js';
export { createSearchClient, clientOptions, cloudIdUrl, normalizeHost, type SearchClient } from './client.js';
export { flattenObject } from './flatten.js';
export { documentId, uuid5 } from './document-id.js';
export {
  indexMappings,
  mappingFacts,
  SPEC_METADATA_MAPPING,
  EXTRA_METADATA_MAPPING,
  type IndexMappings,
  type FieldMapping,
  type MappingFacts,
  type RecordIdLookup,
} from './mapping.js';
export { searchDocument, type SearchDocument } from './search-document.js';
export { sourceText, hitStem } from './source-text.js';
export { BulkWriter, type BulkWriterOptions, type BulkItemError } from './bulk-writer.js';
export {
  searchIndexDestination,
  elasticsearchDestination,
  createSearchIndexDestination,
  SEARCH_INDEX_WRITE_BEHIND,
  type SearchIndexDestination,
} from './search-index-destination.js';
export { searchIndexSource, elasticsearchSource, createSearchIndexSource, type SearchIndexSource } from './search-index-source.js';
