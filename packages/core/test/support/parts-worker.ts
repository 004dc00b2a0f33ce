import type { WorkerTaskHandler } from '../../src/runtime/process-pool.js';

/** A task of the parts worker: `count` parts of `bytes` characters each; `crashAfter`: the process exits after that many parts. */
export type PartsTask = { count: number; bytes: number; crashAfter?: number };
/** One part: its number and its filler. */
export type Part = { index: number; filler: string };
/** What the parts worker answers: the parts it did not send ahead (all of them when it had no sender), and its process id. */
export type PartsResult = { rest: Part[]; pid: number };

/**
 * A worker for the pool's parts tests: sends `count - 1` parts through its part sender (when the
 * caller takes parts), each after the one before was taken, and answers the last; without a sender
 * it answers them all. A withdrawn task stops at its next part: the sender rejects with the reason.
 */
const parts: WorkerTaskHandler<PartsTask, PartsResult, Part> = async (task, _signal, _heavy, part) => {
  const all = Array.from({ length: task.count }, (_, index) => ({ index, filler: String(index % 10).repeat(task.bytes) }));
  if (!part) return { rest: all, pid: process.pid };
  for (const p of all.slice(0, -1)) {
    if (p.index === task.crashAfter) process.exit(3);
    await part(p);
  }
  return { rest: all.slice(-1), pid: process.pid };
};

export default parts;
