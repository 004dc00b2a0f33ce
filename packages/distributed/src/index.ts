export { runDistributed, type DistributedRunOptions } from './coordinator.js';
export { startWorker, type DistributedWorker, type WorkerOptions } from './worker.js';
export { redisOptions, type RedisTarget } from './redis.js';
export { RedisRateBudgets, SHARED_RATE_BUDGETS_SERVICE, type RateBudget, type RateLimits } from './redis-rate-budgets.js';
export { DEFAULT_QUEUE } from './keys.js';
export type { JobSpec, TaskData, TaskNodeTime, TaskResult } from './task.js';
export { DISTRIBUTED_KEY_ENV, openConnectors, sealConnectors, type JobConnectors, type SealedConnectors, type StoredJobSpec } from './sealed-connectors.js';
export { pipelineOf, workflowVersion } from './workflow-version.js';
export { accountDeadJobs, COORDINATOR_LOST, type DeadJobReport, type DeadJobsOptions } from './dead-jobs.js';
