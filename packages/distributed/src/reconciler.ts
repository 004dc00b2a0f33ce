import { errorMessage, type Logger } from '@quarry/core';
import type { Queue } from 'bullmq';
import type { QueueKeys } from './keys.js';
import type { TaskData, TaskResult } from './task.js';
import { parseResult, type TaskOutcomes } from './task-outcomes.js';

/** Looks up the sent tasks older than `olderThanMs` whose outcome event was missed (events are a capped stream, read from "now"). */
export async function reconcile(queue: Queue<TaskData, TaskResult>, outcomes: TaskOutcomes, keys: QueueKeys, olderThanMs: number): Promise<void> {
  const now = Date.now();
  for (const [taskId, task] of [...outcomes.outstanding]) {
    if (!task.sent || now - task.queuedAt < olderThanMs) continue;
    const state = await queue.getJobState(taskId);
    if (state === 'completed') {
      const result = parseResult((await queue.getJob(taskId))?.returnvalue);
      if (result) await outcomes.settle(taskId, result);
    } else if (state === 'failed') {
      const reason = (await queue.getJob(taskId))?.failedReason ?? 'task failed';
      const r = outcomes.failed(taskId, 'TASK_FAILED', reason);
      if (r) await outcomes.settle(taskId, r);
    } else if (state === 'unknown') {
      const r = outcomes.failed(taskId, 'TASK_LOST', `task ${taskId} is no longer in queue "${keys.queue}"`);
      if (r) await outcomes.settle(taskId, r);
    }
  }
}

/** Reconciles every `everyMs` (one pass at a time) until the returned function is called. */
export function startReconciler(queue: Queue<TaskData, TaskResult>, outcomes: TaskOutcomes, keys: QueueKeys, everyMs: number, logger: Logger): () => void {
  let reconciling = false;
  const timer = setInterval(() => {
    if (reconciling) return;
    reconciling = true;
    reconcile(queue, outcomes, keys, everyMs)
      .catch((e: unknown) => logger.warn('looking up tasks failed', { error: errorMessage(e) }))
      .finally(() => (reconciling = false));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
