import { parentPort, threadId } from 'node:worker_threads';
import type { WorkerReply, WorkerTask } from '../../src/runtime/worker-pool.js';

/** A worker for pool tests: spins the CPU (blocking its thread) for `ms`, then replies with its thread id and the byte count. */
parentPort?.on('message', ({ id, task }: WorkerTask<{ ms: number; bytes?: Uint8Array }>) => {
  const until = Date.now() + task.ms;
  while (Date.now() < until);
  const reply: WorkerReply<{ thread: number; length: number }> = { id, ok: true, result: { thread: threadId, length: task.bytes?.byteLength ?? 0 } };
  parentPort!.postMessage(reply);
});
