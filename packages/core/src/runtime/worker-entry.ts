import { workerData } from 'node:worker_threads';
import { QuarryError } from '../errors.js';
import { workerFailure, type WorkerEntryData, type WorkerReply, type WorkerTaskHandler } from './worker-protocol.js';

/*
 * The module piscina runs in every thread of a WorkerPool. It loads the pool's task module and
 * wraps its default export so that a failed task comes back as data with its code: piscina's own
 * error path is a structured clone of the Error, which keeps the message only.
 */

async function loadHandler(url: string): Promise<WorkerTaskHandler<unknown, unknown>> {
  const mod = (await import(url)) as { default?: unknown };
  if (typeof mod.default !== 'function') throw new QuarryError('INVALID_ARGUMENT', `the worker module ${url} has no default-export task function`);
  return mod.default as WorkerTaskHandler<unknown, unknown>;
}

const data = workerData as WorkerEntryData | undefined;
// Loading starts with the thread, not with its first task; a module that cannot load fails every
// task it is given (with the reason) instead of killing threads at start-up.
const handler = data ? loadHandler(data.module) : Promise.reject(new QuarryError('INVALID_ARGUMENT', 'the worker entry runs only in a WorkerPool thread'));
handler.catch(() => undefined);

/** Runs one task of the pool; never throws, so that only a dying thread rejects in piscina. */
export default async function runTask(task: unknown): Promise<WorkerReply<unknown>> {
  try {
    const run = await handler;
    return { ok: true, result: await run(task) };
  } catch (e) {
    return { ok: false, error: workerFailure(e) };
  }
}
