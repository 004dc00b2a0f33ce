/**
 * Whether a document may take a second thread: the machine has two cores or more and is not
 * already short of CPU. A second page thread shares the pages, so on a busy machine it costs only
 * its own start-up; on an idle one it halves the wall time.
 *
 * This file must not import `@quarry/core`: the page worker thread's modules import it.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

// Share of the last 10 s in which some runnable thread waited for a core; above it the machine
// counts as saturated.
const MAX_CPU_PRESSURE = 25;

/**
 * The `some avg10` figure of Linux's CPU pressure file (`/proc/pressure/cpu`): the percentage of
 * the last 10 seconds in which at least one runnable task waited for a CPU. `undefined` when the
 * text has no such figure.
 */
export function cpuPressure10s(text: string): number | undefined {
  const match = /^some\b.*\bavg10=(\d+(?:\.\d+)?)/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

function readCpuPressure(): number | undefined {
  try {
    return cpuPressure10s(readFileSync('/proc/pressure/cpu', 'latin1'));
  } catch {
    return undefined;
  }
}

/** What {@link hasSpareCore} decides from (the machine's, unless a test passes its own). */
export interface CpuState {
  cores: number;
  /** See {@link cpuPressure10s}; `undefined` where the kernel does not report it. */
  pressure10s: number | undefined;
  /** The 1-minute load average, used where pressure is not reported. */
  load1m: number;
}

/** The state of this machine now. */
export function currentCpuState(): CpuState {
  return { cores: availableParallelism(), pressure10s: readCpuPressure(), load1m: loadavg()[0] ?? 0 };
}

/**
 * Whether a second thread would find CPU time: at least two cores, and either Linux's CPU pressure
 * says threads have rarely waited for a core in the last 10 seconds, or (where pressure is not
 * reported) the last minute's load leaves one core idle. Pressure is preferred because it follows
 * contention within seconds, where the 1-minute load average still counts the previous run.
 */
export function hasSpareCore(state: CpuState = currentCpuState()): boolean {
  if (state.cores < 2) return false;
  if (state.pressure10s !== undefined) return state.pressure10s < MAX_CPU_PRESSURE;
  return state.load1m <= state.cores - 0.5;
}
