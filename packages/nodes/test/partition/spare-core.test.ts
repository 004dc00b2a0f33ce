import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cpuPressure10s, currentCpuState, hasSpareCore } from '../../src/partition/spare-core.js';

// The file as Linux 5.x/6.x writes it (`full` appeared in 5.13).
const PRESSURE = `some avg10=31.42 avg60=4.30 avg300=19.34 total=25000250621
full avg10=0.00 avg60=0.00 avg300=0.00 total=0
`;

function readsPressure(): boolean {
  try {
    return readFileSync('/proc/pressure/cpu', 'latin1').startsWith('some');
  } catch {
    return false;
  }
}

describe('cpuPressure10s', () => {
  it('reads the `some avg10` figure, not `full`', () => {
    expect(cpuPressure10s(PRESSURE)).toBe(31.42);
    expect(cpuPressure10s('full avg10=7.00 avg60=0.00 avg300=0.00 total=0\nsome avg10=2.50 avg60=0 avg300=0 total=1\n')).toBe(2.5);
  });

  it('gives undefined for text without the figure', () => {
    expect(cpuPressure10s('')).toBeUndefined();
    expect(cpuPressure10s('full avg10=7.00 avg60=0.00 avg300=0.00 total=0\n')).toBeUndefined();
  });
});

describe('hasSpareCore', () => {
  it('never on one core', () => {
    expect(hasSpareCore({ cores: 1, pressure10s: 0, load1m: 0 })).toBe(false);
  });

  it('follows CPU pressure where the kernel reports it, whatever the lagging load average says', () => {
    expect(hasSpareCore({ cores: 2, pressure10s: 0.5, load1m: 3.9 })).toBe(true);
    expect(hasSpareCore({ cores: 2, pressure10s: 60, load1m: 0.1 })).toBe(false);
  });

  it('falls back to the 1-minute load average leaving half a core idle', () => {
    expect(hasSpareCore({ cores: 2, pressure10s: undefined, load1m: 1.4 })).toBe(true);
    expect(hasSpareCore({ cores: 2, pressure10s: undefined, load1m: 1.6 })).toBe(false);
  });

  it('reads this machine: its cores, and pressure exactly where the kernel reports it', () => {
    const state = currentCpuState();
    expect(state.cores).toBe(availableParallelism());
    if (readsPressure()) expect(state.pressure10s).toBeGreaterThanOrEqual(0);
    else expect(state.pressure10s).toBeUndefined();
    expect(state.load1m).toBeGreaterThanOrEqual(0);
  });
});
