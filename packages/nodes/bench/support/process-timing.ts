/**
 * Whole-process measurement for the PDF bench: wall time from spawn to exit, the peak resident
 * memory and the CPU time spent, counting every process the command started. Where Python 3 runs
 * on Linux, `reap-time.py` runs the command as a child subreaper: it also reaps the processes a
 * command leaves behind as it exits (`quarry partition` does not wait while the system tears its
 * killed partition process down), so their CPU and memory are counted, and the wall time is the
 * command's own, to its exit. Elsewhere GNU time (`/usr/bin/time -f '%M %U %S'`) measures, which
 * counts only the processes their parents waited for.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentCpuState } from '../../src/partition/spare-core.js';

const GNU_TIME = '/usr/bin/time';
const REAP_TIME = fileURLToPath(new URL('./reap-time.py', import.meta.url));

/** How commands are measured here: `reap-time` (Linux with Python 3), `gnu-time`, or the wall time alone. */
export const MEASURED_WITH: 'reap-time' | 'gnu-time' | 'wall' =
  process.platform === 'linux' && spawnSync('python3', ['-c', 'import ctypes, resource'], { stdio: 'ignore' }).status === 0
    ? 'reap-time'
    : existsSync(GNU_TIME)
      ? 'gnu-time'
      : 'wall';

/** One finished process. */
export interface ProcessRun {
  seconds: number;
  /**
   * Peak RSS in MB of the largest single process of the run (the command or one of its
   * descendants, each on its own), or undefined without GNU time.
   */
  peakRssMb: number | undefined;
  /** User plus system CPU seconds of the command and its descendants, or undefined without GNU time. */
  cpuSeconds: number | undefined;
}

/** Why a command could not be measured: its exit code and the end of its stderr. */
export class ProcessFailure extends Error {}

/**
 * Runs `command args...` to completion, timed from spawn to exit, under `reap-time.py` or GNU time
 * (see the module comment; GNU time's own start, about a millisecond, is in every contender's
 * figure alike).
 *
 * @throws ProcessFailure when the command exits non-zero.
 */
export async function timeProcess(command: string, args: readonly string[]): Promise<ProcessRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quarry-bench-time-'));
  const rssFile = path.join(dir, 'time');
  const [file, argv] =
    MEASURED_WITH === 'reap-time'
      ? ['python3', [REAP_TIME, rssFile, command, ...args]]
      : MEASURED_WITH === 'gnu-time'
        ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, command, ...args]]
        : [command, [...args]];
  try {
    const start = process.hrtime.bigint();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-2000)));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    let seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (code !== 0) throw new ProcessFailure(`${path.basename(command)} exited with ${code}: ${stderr.trim().slice(-600)}`);
    const figures = MEASURED_WITH === 'wall' ? [] : ((await readFile(rssFile, 'utf8')).trim().split('\n').pop() ?? '').split(' ').map(Number);
    // reap-time writes the command's own wall time first: its own waiting for what was left behind is not the command's.
    if (MEASURED_WITH === 'reap-time') seconds = figures.shift() ?? seconds;
    const [kb = NaN, user = NaN, sys = NaN] = figures;
    const cpu = user + sys;
    return { seconds, peakRssMb: Number.isFinite(kb) ? round(kb / 1024, 0) : undefined, cpuSeconds: Number.isFinite(cpu) ? round(cpu, 2) : undefined };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The median of the defined values, or null when there is none. */
export function medianOf(xs: readonly (number | undefined)[]): number | null {
  const defined = xs.filter((x): x is number => x !== undefined);
  return defined.length ? median(defined) : null;
}

/** The median of a non-empty list. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** `v` to `digits` decimals. */
export const round = (v: number, digits = 3): number => Number(v.toFixed(digits));

/** The 1-, 5- and 15-minute load averages, two decimals. */
export const loadAverage = (): number[] => loadavg().map((l) => round(l, 2));

/** Linux's CPU pressure over the last 10 s (what decides quarry's second page thread), or null. */
export const cpuPressure = (): number | null => currentCpuState().pressure10s ?? null;
