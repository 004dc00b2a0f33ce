import { getHeapStatistics } from 'node:v8';
import { errorMessage, QuarryError } from '../errors.js';
import {
  SETUP_REPORTER,
  workerFailure,
  type AbortMessage,
  type HeavyMessage,
  type PartMessage,
  type PartTakenMessage,
  type ReadyMessage,
  type SetupReporter,
  type TaskMessage,
  type WarmedUpMessage,
  type WarmUpMessage,
  type WorkerReply,
  type WorkerReplyMessage,
  type WorkerTaskHandler,
  type WorkerWarmUp,
} from './worker-protocol.js';

/*
 * The program every process of a ProcessPool runs: it loads the pool's task module (its URL is the
 * first argument) and answers each task message with the task function's result, or its failure as
 * data with its code (an Error sent over IPC would lose `code` and `details`).
 */

interface WorkerModule {
  run: WorkerTaskHandler<unknown, unknown, unknown>;
  warmUp?: WorkerWarmUp;
}

async function loadModule(url: string | undefined): Promise<WorkerModule> {
  if (!url) throw new QuarryError('INVALID_ARGUMENT', 'the process entry runs only in a ProcessPool process');
  const mod = (await import(url)) as { default?: unknown; warmUp?: unknown };
  if (typeof mod.default !== 'function') throw new QuarryError('INVALID_ARGUMENT', `the worker module ${url} has no default-export task function`);
  return {
    run: mod.default as WorkerTaskHandler<unknown, unknown, unknown>,
    ...(typeof mod.warmUp === 'function' ? { warmUp: mod.warmUp as WorkerWarmUp } : {}),
  };
}

// Setup work (an engine starting) is the process's, not its task's: the pool does not count it.
(globalThis as Record<symbol, unknown>)[SETUP_REPORTER] = ((message) => process.send?.(message)) satisfies SetupReporter;

// Loading starts with the process, not with its first task; a module that cannot load fails every
// task it is given (with the reason) instead of ending the process.
const workerModule = loadModule(process.argv[2]);
const handler = workerModule.then((m) => m.run);
const ready: ReadyMessage = { ready: true, heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20) };
handler.then(
  () => process.send?.(ready),
  () => process.send?.(ready),
);

function answer(id: number, reply: WorkerReply<unknown>): void {
  try {
    process.send?.({ id, reply } satisfies WorkerReplyMessage<unknown>);
  } catch (e) {
    // A result the serializer refuses (a function inside, say) fails its task, not the process.
    process.send?.({
      id,
      reply: { ok: false, error: { code: 'NODE_FAILED', message: `the result cannot be sent back: ${errorMessage(e)}` } },
    } satisfies WorkerReplyMessage<unknown>);
  }
}

// The signals of the running tasks, by id: the pool aborts one when its caller gives up.
const running = new Map<number, AbortController>();
// The parts sent and not yet taken, by task id, oldest first: the pool's answers resolve them in order.
const unTaken = new Map<number, Array<() => void>>();

/**
 * Sends one part of the result of task `id`; resolves when the pool says the caller has it, rejects
 * with the signal's reason once the task is withdrawn (the pool takes no more of its parts).
 */
function sendPart(id: number, part: unknown, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const waiting = unTaken.get(id) ?? [];
    const onAbort = (): void => {
      unTaken.delete(id);
      reject(signal.reason);
    };
    const taken = (): void => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    };
    try {
      process.send?.({ id, part } satisfies PartMessage<unknown>);
    } catch (e) {
      reject(new QuarryError('NODE_FAILED', `a part of the result cannot be sent back: ${errorMessage(e)}`));
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    waiting.push(taken);
    unTaken.set(id, waiting);
  });
}
// The worker module once the warm-ups asked so far have ended: each waits for those before it.
let afterWarmUps: Promise<WorkerModule | undefined> = workerModule;
// Resumed when the last running task ends: a warm-up waits here between its steps.
const whenIdle: Array<() => void> = [];
const untilIdle = (): Promise<void> => (running.size === 0 ? Promise.resolve() : new Promise((resume) => whenIdle.push(resume)));

process.on('message', (message: TaskMessage<unknown> | AbortMessage | WarmUpMessage | PartTakenMessage) => {
  if ('partTaken' in message) {
    unTaken.get(message.partTaken)?.shift()?.();
    return;
  }
  if ('warmUp' in message) {
    // A task arriving meanwhile goes first: the warm-up waits for it between its steps. Warm-ups
    // run one after the other (a promoted spare's follows its first), each answered when done.
    const options = { light: message.light === true };
    const done = afterWarmUps
      .then((m) => m?.warmUp?.(untilIdle, options))
      .catch(() => undefined)
      .then(() => void process.send?.({ warmedUp: true } satisfies WarmedUpMessage));
    afterWarmUps = done.then(() => workerModule.catch(() => undefined));
    return;
  }
  if ('abort' in message) {
    running.get(message.abort)?.abort(new QuarryError('JOB_ABORTED', 'the task was withdrawn'));
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  const { id } = message;
  let told = false;
  const heavy = (): void => {
    if (told || !running.has(id)) return;
    told = true;
    process.send?.({ heavy: id } satisfies HeavyMessage);
  };
  const part = message.parts ? (p: unknown) => sendPart(id, p, controller.signal) : undefined;
  void handler
    .then((run) => run(message.task, controller.signal, heavy, part))
    .then(
      (result) => answer(message.id, { ok: true, result }),
      (e: unknown) => answer(message.id, { ok: false, error: workerFailure(e) }),
    )
    .finally(() => {
      running.delete(message.id);
      unTaken.delete(message.id);
      if (running.size === 0) for (const resume of whenIdle.splice(0)) resume();
    });
});

// A parser's stray rejection (pdf.js rejects promises nobody awaits on some broken files) is noted,
// not fatal: the task it belongs to still answers, or meets the pool's time limit.
process.on('unhandledRejection', (e) => {
  process.stderr.write(`unhandled rejection: ${errorMessage(e)}\n`);
});

// An exception outside any await leaves the process in an unknown state: exit, and the pool fails
// the running task with this last line (answering first could hand the dying process a new task).
process.on('uncaughtException', (e) => {
  process.stderr.write(`uncaught exception: ${errorMessage(e)}\n`, () => process.exit(70));
});

// The pool went away (closed, or its process ended): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
