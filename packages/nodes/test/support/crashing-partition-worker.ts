import { parentPort } from 'node:worker_threads';
import type { WorkerTask } from '@quarry/core';
import { handlePartitionTask, type PartitionTask } from '../../src/pool/partition-task.js';

/**
 * The partition worker with test-only poison pills: a document whose file name contains "poison"
 * ends the worker thread (as a native crash would), one containing "hang" blocks the thread for
 * good (as a runaway parser would); every other document is partitioned as usual.
 */
parentPort?.on('message', (message: WorkerTask<PartitionTask>) => {
  const name = message.task.request.filename;
  if (name.includes('poison')) process.exit(7);
  if (name.includes('hang')) for (;;);
  void handlePartitionTask(message).then((reply) => parentPort!.postMessage(reply));
});
