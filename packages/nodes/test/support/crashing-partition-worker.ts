import { handlePartitionTask, type PartitionTask, type PartitionTaskResult } from '../../src/pool/partition-task.js';

/**
 * The partition worker with test-only poison pills: a document whose file name contains "poison"
 * ends the worker thread (as a native crash would), one containing "hang" blocks the thread for
 * good (as a runaway parser would); every other document is partitioned as usual.
 */
export default function crashingPartitionTask(task: PartitionTask): Promise<PartitionTaskResult> {
  const name = task.request.filename;
  if (name.includes('poison')) process.exit(7);
  if (name.includes('hang')) for (;;);
  return handlePartitionTask(task);
}
