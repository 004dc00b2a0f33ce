/**
 * The worker module of the partition pool: its default export is the task function that the
 * `WorkerPool` of `@quarry/core` runs in each thread, one document per task.
 */
export { handlePartitionTask as default } from './partition-task.js';
