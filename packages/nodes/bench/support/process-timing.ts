/**
 * Whole-process measurement for the PDF bench: wall time from spawn to exit, and from GNU time
 * (`/usr/bin/time -f '%M %U %S'`) the kernel's peak resident memory and the CPU time spent.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { currentCpuState } from '../../src/partition/spare-core.js';

const GNU_TIME = '/usr/bin/time';

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
 * Runs `command args...` to completion, timed from spawn to exit. Under GNU time when it is
 * installed (its own start, about a millisecond, is in every contender's figure alike).
 *
 * @throws ProcessFailure when the command exits non-zero.
 */
export async function timeProcess(command: string, args: readonly string[]): Promise<ProcessRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'quarry-bench-time-'));
  const rssFile = path.join(dir, 'time');
  const withTime = existsSync(GNU_TIME);
  const [file, argv] = withTime ? [GNU_TIME, ['-f', '%M %U %S', '-o', rssFile, command, ...args]] : [command, [...args]];
  try {
    const start = process.hrtime.bigint();
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(file, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-2000)));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (code !== 0) throw new ProcessFailure(`${path.basename(command)} exited with ${code}: ${stderr.trim().slice(-600)}`);
    const [kb = NaN, user = NaN, sys = NaN] = withTime ? ((await readFile(rssFile, 'utf8')).trim().split('\n').pop() ?? '').split(' ').map(Number) : [];
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
