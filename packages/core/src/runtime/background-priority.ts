import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than its caller background work runs: it yields the cores to the caller's event loop and to small documents. */
const BACKGROUND_STEP = 10;
const NICEST = 19;

/** A process's threads (on Linux niceness belongs to each), or the process alone where `/proc` does not list them. */
function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [pid];
  }
}

/** The niceness of background work started by this process: its own plus 10, at most 19. */
export function backgroundNiceness(): number {
  return Math.min(NICEST, getPriority() + BACKGROUND_STEP);
}

/**
 * Lowers a process to background CPU priority ({@link backgroundNiceness}). On Linux niceness belongs to each thread, so every
 * thread listed in `/proc/<pid>/task` is lowered (threads started later inherit it from theirs).
 * An unprivileged process may lower priority but never raise it back: a lowered process stays so.
 * A process that is gone, or a system that refuses, is left as it is: priority is a preference.
 */
export function toBackground(pid: number | undefined): void {
  if (pid === undefined) return;
  const niceness = backgroundNiceness();
  for (const tid of threadsOf(pid)) {
    try {
      setPriority(tid, niceness);
    } catch {
      // exited meanwhile, or not permitted here
    }
  }
}

/**
 * Raises a process lowered by {@link toBackground} back to the caller's own priority, every thread of
 * it. Raising needs privilege on Linux (root, `CAP_SYS_NICE` or a `RLIMIT_NICE` that allows it):
 * returns false when the system refused, true when raised (or the process is gone).
 */
export function toForeground(pid: number | undefined): boolean {
  if (pid === undefined) return true;
  const niceness = getPriority();
  for (const tid of threadsOf(pid)) {
    try {
      setPriority(tid, niceness);
    } catch (e) {
      // A thread that exited meanwhile is no refusal (Node's system errors carry errno's name in `info`).
      if ((e as { info?: { code?: string } }).info?.code !== 'ESRCH') return false;
    }
  }
  return true;
}
