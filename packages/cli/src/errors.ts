import type { ErrorCodeTable } from '@quarry/core';

/**
 * The error codes @quarry/cli throws (the partition endpoint client of `quarry ingest`), each with a
 * one-line description; the README's table is checked against it. A host, not a plugin: no registry
 * holds them. Codes core raises (`JOB_ABORTED`, `INVALID_ARGUMENT`, ...) are core's.
 */
export const CLI_ERROR_CODES = {
  PARTITION_API_AUTH_FAILED: 'the partition endpoint rejected the API key (401/403)',
  PARTITION_API_QUOTA_EXCEEDED: 'the partition endpoint reports the quota is used up (402)',
  PARTITION_API_REJECTED: 'the partition endpoint rejected the file or parameters (4xx)',
  PARTITION_API_UNAVAILABLE: 'the partition endpoint failed or is overloaded (5xx)',
} as const satisfies ErrorCodeTable;

type CliErrorCodes = typeof CLI_ERROR_CODES;

// Declares these codes to the type checker wherever @quarry/cli is imported.
declare module '@quarry/core' {
  interface QuarryErrorCodes extends CliErrorCodes {}
}
