import { threadId } from 'node:worker_threads';
import { QuarryError } from '../../src/errors.js';
import type { WorkerTaskHandler } from '../../src/runtime/worker-pool.js';

/**
 * A worker for pool tests: answers the upper-cased word and its thread id after `ms`. Some words
 * misbehave: "fail" throws a coded error, "oops" a plain one; "crash" exits the thread, "uncaught"
 * throws outside the task (an uncaught exception), "oom" fills the heap, "clone" answers a result
 * that cannot be cloned (a function).
 */
const probe: WorkerTaskHandler<{ word: string; ms: number }, { word: string; thread: number }> = async (task) => {
  if (task.word === 'crash') process.exit(3);
  if (task.word === 'uncaught') setTimeout(() => {
    throw new Error('boom outside the task');
  }, 0);
  if (task.word === 'oom') {
    const hoard: number[][] = [];
    for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => i));
  }
  await new Promise((r) => setTimeout(r, task.ms));
  if (task.word === 'fail') throw new QuarryError('FILE_UNREADABLE', 'cannot read fail', { details: { word: task.word } });
  if (task.word === 'oops') throw new TypeError('not a word');
  if (task.word === 'clone') return { word: 'CLONE', thread: threadId, toString: () => 'not data' };
  return { word: task.word.toUpperCase(), thread: threadId };
};

export default probe;
