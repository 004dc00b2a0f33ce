import { parentPort } from 'node:worker_threads';
import { elementToJSON, errorMessage, isQuarryError, type Element } from '@quarry/core';
import { partitionFile, type PartitionFileRequest } from '@quarry/nodes';
import type { WorkerReply, WorkerTask } from './worker-pool.js';

/** One document to partition in a worker: its bytes and the request (without signal and logger). */
export interface PartitionTask {
  bytes: Uint8Array;
  request: Omit<PartitionFileRequest, 'signal' | 'logger'>;
}

/**
 * The partition worker of `quarry ingest`: partitions one document per message with
 * `partitionFile` and posts back the elements' JSON, or the coded error of that document alone.
 */
parentPort?.on('message', async ({ id, task }: WorkerTask<PartitionTask>) => {
  let reply: WorkerReply<Element[]>;
  try {
    const elements = await partitionFile(task.bytes, task.request);
    reply = { id, ok: true, result: elements.map(elementToJSON) };
  } catch (e) {
    reply = { id, ok: false, error: { code: isQuarryError(e) ? e.code : 'NODE_FAILED', message: errorMessage(e), ...(isQuarryError(e) ? { details: e.details } : {}) } };
  }
  parentPort!.postMessage(reply);
});
