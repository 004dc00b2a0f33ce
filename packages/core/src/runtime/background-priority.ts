import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than its caller background work runs: it yields the cores to the caller's event loop and to small documents. */
const BACKGROUND_STEP = 10;
const NICEST = 19;

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
  let threads: number[];
  try {
    threads = readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    threads = [pid];
  }
  const niceness = backgroundNiceness();
  for (const tid of threads) {
    try {
      setPriority(tid, niceness);
    } catch {
      // exited meanwhile, or not permitted here
    }
  }
}
