/**
 * The worker pool of `quarry ingest` is the engine's generic one: it lives in `@quarry/core` so that
 * node packages (the pooled partitioner of `quarry run --num-processes`) share it.
 */
export { WorkerPool, type WorkerFailure, type WorkerPoolOptions, type WorkerReply, type WorkerTask } from '@quarry/core';
