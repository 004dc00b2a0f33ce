export { runDistributed, type DistributedRunOptions } from './coordinator.js';
export { startWorker, type DistributedWorker, type WorkerOptions } from './worker.js';
export { redisOptions, type RedisTarget } from './redis.js';
export { DEFAULT_QUEUE } from './keys.js';
export type { JobSpec, TaskData, TaskNodeTime, TaskResult } from './task.js';
export { pipelineOf, workflowVersion } from './workflow-version.js';
