// Concurrency primitives of every package: a bounded batching queue, a retry helper and an
// abortable wait, all on an injected scheduler (an rxjs `TestScheduler` gives virtual time in marble tests).
export { BatchQueue, type BatchQueueHandlers, type BatchQueueOptions } from './batch-queue.js';
export { timers, type ScheduledTimer, type TimerScheduler, type TimersOptions } from './timer-scheduler.js';
export { retrying, retryWithBackoff, type RetryEvent, type RetryGiveUp, type RetryOptions } from './retry.js';
export { wait, waitFor, type WaitOptions } from './wait.js';
export { abortReason, backoffDelay } from '../runtime/sleep.js';
export type { SchedulerLike } from 'rxjs';
