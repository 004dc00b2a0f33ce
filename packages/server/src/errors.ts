import type { ErrorCodeTable } from '@quarry/core';

/**
 * The error codes @quarry/server throws (the REST service), each with a one-line description; the
 * README's table is checked against it. A host, not a plugin: no registry holds them. Codes core
 * raises (`NOT_FOUND`, `REQUEST_INVALID`, ...) are core's, and it reuses the nodes' `FILE_UNREADABLE`.
 */
export const SERVER_ERROR_CODES = {
  DISK_FULL: 'the data directory has no space left for an upload, a staged file or a store write (507)',
  MULTIPART_INVALID: 'a multipart/form-data body is malformed: no boundary, truncated, or a part without valid headers (400)',
  REQUEST_TIMEOUT: "a request's headers or body did not arrive within its time limit, or its body stalled (408)",
  SERVER_BUSY: 'the partition queue is full (documents or bytes); retry after the `Retry-After` seconds (503)',
  STORE_LOCKED: 'the SQLite file is held by another running process (one quarry server per data directory)',
  STORE_UNAVAILABLE: 'the SQLite store could not read or write (an I/O error other than a full disk); retry later (503)',
} as const satisfies ErrorCodeTable;

type ServerErrorCodes = typeof SERVER_ERROR_CODES;

// Declares these codes to the type checker wherever @quarry/server is imported.
declare module '@quarry/core' {
  interface QuarryErrorCodes extends ServerErrorCodes {}
}
