// @quarry/core/batch-queue: the bounded queue and the real clock without rxjs, for code on the way
// of `quarry partition` (the OCR pool); @quarry/core/concurrency re-exports both beside the retry helper.
export { BatchQueue, type BatchQueueHandlers, type BatchQueueOptions } from './batch-queue.js';
export { timers, type ScheduledTimer, type TimerScheduler, type TimersOptions } from './timer-scheduler.js';
