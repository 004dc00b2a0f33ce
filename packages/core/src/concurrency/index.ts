// Concurrency primitives of every package: a bounded batching queue, a retry helper and an
// abortable wait, all on an injected rxjs scheduler (virtual time in marble tests).
export { BatchQueue, type BatchQueueHandlers, type BatchQueueOptions } from './batch-queue.js';
export { retrying, retryWithBackoff, type RetryEvent, type RetryGiveUp, type RetryOptions } from './retry.js';
export { wait, waitFor, type WaitOptions } from './wait.js';
export { abortReason, backoffDelay } from '../runtime/sleep.js';
export type { SchedulerLike } from 'rxjs';
