import { readFileSync } from 'node:fs';

/** Resident MB of a process now (VmRSS, from `/proc`: Linux). */
export function residentMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}
