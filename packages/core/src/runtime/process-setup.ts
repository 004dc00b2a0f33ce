import { SETUP_REPORTER, type SetupReporter } from './worker-protocol.js';

/**
 * Runs `work` as the process's own setup (an engine its tasks share starting up, say), not as the
 * running task's work: in a process of a `ProcessPool` small lane, the CPU time it takes does not
 * count toward the lane's hand-off time, so a small document that happens to be the first to need
 * the engine keeps its lane process. Anywhere else it just runs `work`.
 *
 * @example
 * ```ts
 * const engine = await processSetup(() => startEngine());
 * ```
 */
export async function processSetup<T>(work: () => Promise<T>): Promise<T> {
  const report = (globalThis as Record<symbol, unknown>)[SETUP_REPORTER] as SetupReporter | undefined;
  if (!report) return work();
  report({ setup: true });
  try {
    return await work();
  } finally {
    report({ setup: false });
  }
}
