import { threadId } from 'node:worker_threads';
import type { WorkerTaskHandler } from '../../src/runtime/worker-pool.js';

/** A worker for pool tests: spins the CPU (blocking its thread) for `ms`, then returns its thread id and the byte count. */
const busy: WorkerTaskHandler<{ ms: number; bytes?: Uint8Array }, { thread: number; length: number }> = (task) => {
  const until = Date.now() + task.ms;
  while (Date.now() < until);
  return { thread: threadId, length: task.bytes?.byteLength ?? 0 };
};

export default busy;
