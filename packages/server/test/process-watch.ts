import { readFileSync } from 'node:fs';
import { sleep } from '@quarry/core';

const TICKS_PER_S = 100;

/**
 * CPU seconds a process has used (user + system, from `/proc/<pid>/stat`), or only its thread `tid`
 * (`tid === pid`: the main thread, a Node process's event loop); 0 once it is gone.
 */
export function cpuSeconds(pid: number, tid?: number): number {
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** CPU seconds the process burns over `ms`. */
async function cpuOver(pid: number, ms: number): Promise<number> {
  const before = cpuSeconds(pid);
  await sleep(ms);
  return cpuSeconds(pid) - before;
}

/** Resolves once the process has burnt a tenth of a CPU second within half a second: it is working. */
export async function untilBusy(pid: number): Promise<void> {
  while ((await cpuOver(pid, 500)) < 0.1);
}

/**
 * Resolves once the process burns (almost) no CPU over 300 ms: it has stopped working. Returns
 * the CPU seconds it used from the call until then (a measure of work, not of the machine's load).
 */
export async function untilIdle(pid: number): Promise<number> {
  const start = cpuSeconds(pid);
  while ((await cpuOver(pid, 300)) > 0.02);
  return cpuSeconds(pid) - start;
}
