import { parentPort } from 'node:worker_threads';
import { errorMessage, type WorkerReply, type WorkerTask } from '@quarry/core';
import { handlePartitionTask, type PartitionTask, type PartitionTaskResult } from './partition-task.js';

function post(reply: WorkerReply<PartitionTaskResult>): void {
  try {
    parentPort!.postMessage(reply);
  } catch (e) {
    // A reply that cannot be cloned fails its document, not the worker.
    parentPort!.postMessage({ id: reply.id, ok: false, error: { code: 'NODE_FAILED', message: `cannot send the partition result back: ${errorMessage(e)}` } });
  }
}

// The worker module of the partition pool: one document per message, one reply per message.
parentPort?.on('message', (message: WorkerTask<PartitionTask>) => {
  void handlePartitionTask(message).then(post);
});
