import { handlePartitionTask, type PartitionTask, type PartitionTaskResult } from '../../src/pool/partition-task.js';

/**
 * The partition worker with test-only poison pills: a document whose file name contains "poison"
 * kills its process with SIGSEGV (as a native crash does), one containing "hang" blocks it for good
 * (as a runaway parser does), one containing "torn" is partitioned and its output file written,
 * then kills its process before it answers; every other document is partitioned as usual.
 */
export default async function crashingPartitionTask(task: PartitionTask): Promise<PartitionTaskResult> {
  const name = task.request.filename;
  if (name.includes('poison')) process.kill(process.pid, 'SIGSEGV');
  if (name.includes('hang')) for (;;);
  const result = await handlePartitionTask(task);
  if (name.includes('torn')) process.kill(process.pid, 'SIGSEGV');
  return result;
}
