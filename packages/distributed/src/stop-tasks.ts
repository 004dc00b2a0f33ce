import { wait, type BatchQueue } from '@quarry/core/concurrency';
import type { ControlMessage } from './keys.js';
import { RECORD_TTL_S } from './keys.js';
import type { TaskOutcomes } from './task-outcomes.js';
import type { TaskResult } from './task.js';
import type { QueuedTask, TaskTarget } from './task-window.js';

const stopped = (): TaskResult => ({ outcome: 'stopped', nodes: [], worker: '' });

/**
 * Cancel: workers are told (and check a flag before each task), queued tasks are removed, and
 * running ones get `graceMs` to come back stopped before they are counted stopped anyway.
 */
export async function stopTasks(
  target: TaskTarget,
  jobId: string,
  outcomes: TaskOutcomes,
  tasks: BatchQueue<QueuedTask> | undefined,
  graceMs: number,
): Promise<void> {
  const { redis, queue, keys } = target;
  // Tasks listed but not sent yet never reach a worker.
  for (const task of tasks?.discard() ?? []) {
    if (task.opts.jobId !== undefined) await outcomes.settle(task.opts.jobId, stopped());
  }
  await redis.set(keys.cancelled(jobId), '1', 'EX', RECORD_TTL_S);
  const msg: ControlMessage = { type: 'cancel', job_id: jobId };
  await redis.publish(keys.control, JSON.stringify(msg));
  for (const taskId of [...outcomes.outstanding.keys()]) {
    const removed = await queue.remove(taskId).catch(() => 0);
    if (removed === 1) await outcomes.settle(taskId, stopped());
  }
  if (tasks && outcomes.outstanding.size > 0) {
    const graceOver = new AbortController();
    const stopTimer = new AbortController();
    void wait(graceMs, { signal: stopTimer.signal }).then(
      () => graceOver.abort(),
      () => undefined,
    );
    await tasks.idle(graceOver.signal).catch(() => undefined);
    stopTimer.abort();
  }
  for (const taskId of [...outcomes.outstanding.keys()]) {
    await queue.remove(taskId).catch(() => 0);
    await outcomes.settle(taskId, stopped());
  }
}
