import type { ErrorCodeTable } from '@quarry/core';

/**
 * The error codes @quarry/connectors throws (the local and search-index connectors), each with a
 * one-line description. The README's table is checked against it and `connectorsPlugin` declares it
 * at registration. Codes core raises (`DOCUMENT_READ_FAILED`, `DESTINATION_WRITE_FAILED`, ...) are
 * core's.
 */
export const CONNECTORS_ERROR_CODES = {
  DESTINATION_UNAVAILABLE: 'a destination cannot be prepared (missing, not a directory, unreachable)',
  SEARCH_INDEX_AUTH_FAILED: 'the search cluster rejected the credentials (the auth form is named, never the secret)',
  SEARCH_INDEX_REQUEST_FAILED: 'a search cluster request or bulk item failed',
  SEARCH_INDEX_SCHEMA_MISMATCH: 'a caller-created index mapping does not fit the records (dims, similarity)',
  SEARCH_INDEX_UNREACHABLE: 'the search cluster cannot be reached',
  SOURCE_NOT_FOUND: 'a source location does not exist or cannot be opened',
} as const satisfies ErrorCodeTable;

type ConnectorsErrorCodes = typeof CONNECTORS_ERROR_CODES;

// Declares these codes to the type checker wherever @quarry/connectors is imported.
declare module '@quarry/core' {
  interface QuarryErrorCodes extends ConnectorsErrorCodes {}
}
