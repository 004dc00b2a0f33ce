import type { WorkerWarmUp } from '@quarry/core/process-pool';
import { partitionFile } from '../partition/partition-file.js';
import { CHUNK_TASK_MODULE } from './partition-task.js';

/**
 * The worker module of the partition pool: its default export is the task function that the
 * `ProcessPool` of `@quarry/core` runs in each process, one document per task.
 */
export { handlePartitionTask as default } from './partition-task.js';

// Every document's element ids draw on node:crypto (@quarry/core/element's randomUuid fetches it with
// its first batch): fetched here, while a new process waits for its first document, not after a long
// document's last page.
process.getBuiltinModule('node:crypto');

// Imported by URL, which the worker bundle does not follow: a `quarry partition` process never loads it.
const WARM_UP_MODULE = new URL(`./warm-up${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/**
 * Readies a process of a warmed pool (a server's small lane): partitions a tiny document of each
 * common format, a small picture read by OCR among them, then chunks one; keeps the OCR engine the
 * picture starts for the life of the process (about 100 MB resident), so that the next e-mail's logo
 * does not wait for one to start. Processes that are not warmed (`quarry partition`, a pool's
 * general processes) start an engine on their first OCR only.
 */
export const warmUp: WorkerWarmUp = async (untilIdle) => {
  // Imported here, not at the top: a process that is not warmed loads OCR with its first picture.
  (await import('../partition/ocr.js')).keepOcrWorkers(1);
  const mod = (await import(WARM_UP_MODULE)) as typeof import('./warm-up.js');
  await mod.warmUp(partitionFile, untilIdle);
  // A job's chunker runs in this process too, right after its partitioner.
  await untilIdle();
  await ((await import(CHUNK_TASK_MODULE)) as typeof import('./chunk-task.js')).warmUpChunking();
};
