/**
 * The worker module of the partition pool: its default export is the task function that the
 * `ProcessPool` of `@quarry/core` runs in each process, one document per task.
 */
export { handlePartitionTask as default } from './partition-task.js';
