export { PartitionPool, PARTITION_POOL_SERVICE, partitionWorkerUrl, type PartitionPoolOptions, type PooledPartitionOptions } from './partition-pool.js';
export { handlePartitionTask, type PartitionTask, type PartitionTaskResult, type PartitionLogEntry } from './partition-task.js';
