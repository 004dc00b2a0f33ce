import type { ErrorCodeTable } from '@quarry/core';

/**
 * The error codes @quarry/distributed throws (its coordinator and workers), each with a one-line
 * description; the README's table is checked against it. A host, not a plugin: no registry holds
 * them. Codes core raises (`JOB_ABORTED`, `INVALID_ARGUMENT`, ...) are core's.
 */
export const DISTRIBUTED_ERROR_CODES = {
  COORDINATOR_LOST: 'a distributed task of a job whose coordinator stopped sending its heartbeat (it died); the worker did not run it',
  DISTRIBUTED_JOB_INVALID: "a distributed task names a job or workflow version that Redis does not hold as stated, or lacks the coordinator's signature",
  DISTRIBUTED_KEY_MISMATCH: "a worker's shared secret does not open a distributed job's encrypted connectors",
  DISTRIBUTED_KEY_REQUIRED: 'a distributed job keeps its connectors encrypted and the worker has no shared secret',
  REDIS_UNAVAILABLE: 'Redis does not answer at the configured URL within 5 s at start',
  SOURCE_NOT_ADDRESSABLE: 'a source cannot re-open a document from its record, so it cannot run distributed',
  TASK_FAILED: 'a distributed task failed in the queue (BullMQ recovered it from dead workers more than `maxStalledCount` times, or no worker could run it)',
  TASK_LOST: 'a distributed task disappeared from the queue before reporting an outcome',
} as const satisfies ErrorCodeTable;

type DistributedErrorCodes = typeof DISTRIBUTED_ERROR_CODES;

// Declares these codes to the type checker wherever @quarry/distributed is imported.
declare module '@quarry/core' {
  interface QuarryErrorCodes extends DistributedErrorCodes {}
}
