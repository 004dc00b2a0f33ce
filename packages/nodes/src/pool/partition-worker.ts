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

// What this process has readied: a light warm-up readies the documents only.
let documentsReady = false;
let picturesReady = false;

/**
 * Readies a process of a warmed pool (a server's small lane): partitions a tiny document of each
 * common format and chunks one, then reads a small picture by OCR and keeps the engine it starts
 * for the life of the process (about 100 MB resident), so that the next e-mail's logo does not
 * wait for one to start. A light warm-up (the lane's spare, or a second lane process: one engine
 * kept warm is enough at rest) leaves the picture out, and the process starts an engine on its
 * first OCR, or when it warms up fully (a spare joining the lane). Processes that are not warmed
 * (`quarry partition`, a pool's general processes) start an engine on their first OCR only.
 */
export const warmUp: WorkerWarmUp = async (untilIdle, { light }) => {
  const mod = (await import(WARM_UP_MODULE)) as typeof import('./warm-up.js');
  if (!documentsReady) {
    await mod.warmUp(partitionFile, untilIdle, mod.documentSamples());
    // A job's chunker runs in this process too, right after its partitioner.
    await untilIdle();
    await ((await import(CHUNK_TASK_MODULE)) as typeof import('./chunk-task.js')).warmUpChunking();
    documentsReady = true;
  }
  if (light || picturesReady) return;
  // Imported here, not at the top: a process that is not warmed loads OCR with its first picture.
  (await import('../partition/ocr.js')).keepOcrWorkers(1);
  await mod.warmUp(partitionFile, untilIdle, mod.pictureSamples());
  picturesReady = true;
};
