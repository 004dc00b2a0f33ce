import type { WorkerTaskHandler } from '../../src/runtime/process-pool.js';

/** A worker for pool tests: spins the CPU (blocking its process) for `ms`, then returns its process id and the byte count. */
const busy: WorkerTaskHandler<{ ms: number; bytes?: Uint8Array }, { pid: number; length: number }> = (task) => {
  const until = Date.now() + task.ms;
  while (Date.now() < until);
  return { pid: process.pid, length: task.bytes?.byteLength ?? 0 };
};

export default busy;
