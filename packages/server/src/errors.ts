import type { ErrorCodeTable } from '@quarry/core';

/**
 * The error codes @quarry/server throws (the REST service), each with a one-line description; the
 * README's table is checked against it. A host, not a plugin: no registry holds them. Codes core
 * raises (`NOT_FOUND`, `REQUEST_INVALID`, ...) are core's, and it reuses the nodes' `FILE_UNREADABLE`.
 */
export const SERVER_ERROR_CODES = {
  MULTIPART_INVALID: 'a multipart/form-data body is malformed: no boundary, truncated, or a part without valid headers (400)',
  STORE_LOCKED: 'the SQLite file is held by another running process (one quarry server per data directory)',
} as const satisfies ErrorCodeTable;

type ServerErrorCodes = typeof SERVER_ERROR_CODES;

// Declares these codes to the type checker wherever @quarry/server is imported.
declare module '@quarry/core' {
  interface QuarryErrorCodes extends ServerErrorCodes {}
}
