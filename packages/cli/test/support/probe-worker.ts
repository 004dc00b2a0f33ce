import { parentPort, threadId } from 'node:worker_threads';
import type { WorkerReply, WorkerTask } from '../../src/ingest/worker-pool.js';

/** A worker for pool tests: replies with its thread id after `ms`, fails on "fail", dies on "crash". */
parentPort?.on('message', async ({ id, task }: WorkerTask<{ word: string; ms: number }>) => {
  if (task.word === 'crash') process.exit(3);
  await new Promise((r) => setTimeout(r, task.ms));
  const reply: WorkerReply<{ word: string; thread: number }> =
    task.word === 'fail' ? { id, ok: false, error: { code: 'FILE_UNREADABLE', message: 'cannot read fail' } } : { id, ok: true, result: { word: task.word.toUpperCase(), thread: threadId } };
  parentPort!.postMessage(reply);
});
