// A long result's trip from a ProcessPool process back to the caller: 9,364 element-like records
// (about 4 MB, the elements of the 619-page PDF) in one message, against parts of 650 records
// (about 256 kB, what the partition pool sends), one per event-loop turn of the caller. JSON
// lines per case: the caller's worst event-loop stall while the result arrives (the longest gap
// between the turns of a 1 ms interval, up to 20 ms after it) and the wall time from run() to the
// result, medians over QUARRY_BENCH_RUNS (default 7) alternating runs; and the probe's worst gap
// with nothing to do, the noise floor. Other work on the machine stretches all of them (the load
// average is printed). What remains with parts is mostly the young generation's scavenges, which
// copy the records received so far (--trace-gc).
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessPool } from '../src/runtime/process-pool.js';
import type { ElementsTask, ElementLike } from './support/elements-worker.js';

const COUNT = 9364;
const SLICE = 650;
const RUNS = Number(process.env.QUARRY_BENCH_RUNS ?? 7);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const pool = new ProcessPool<ElementsTask, ElementLike[], ElementLike[]>({ workerUrl: new URL('./support/elements-worker.ts', import.meta.url), size: 1 });
const cases = [
  { name: 'one message', slice: 0 },
  { name: `parts of ${SLICE} records`, slice: SLICE },
];
const figures = new Map([...cases.map((c) => c.name), 'idle'].map((name) => [name, { stall: [] as number[], wall: [] as number[] }]));

/** Runs `work` while a 1 ms interval turns; returns the longest gap between its turns, up to 20 ms after `work`. */
async function worstStall(work: () => Promise<void>): Promise<number> {
  let worst = 0;
  let tick = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - tick);
    tick = now;
  }, 1);
  await work();
  // A stall that ends with the work is seen at the probe's next turn.
  await sleep(20);
  clearInterval(probe);
  return worst;
}

// The first trip of each case warms the process and the caller's code paths: not counted.
for (const c of cases) await pool.run({ count: COUNT, slice: c.slice }, { onPart: () => undefined });
for (let run = 0; run < RUNS; run++) {
  for (const c of cases) {
    const parts: ElementLike[][] = [];
    let wall = 0;
    const stall = await worstStall(async () => {
      const t0 = performance.now();
      const last = await pool.run({ count: COUNT, slice: c.slice }, { onPart: (p) => parts.push(p) });
      wall = performance.now() - t0;
      parts.push(last);
    });
    if (parts.flat().length !== COUNT) throw new Error(`${c.name}: ${parts.flat().length} records arrived, not ${COUNT}`);
    figures.get(c.name)!.stall.push(stall);
    figures.get(c.name)!.wall.push(wall);
  }
  // The noise floor: the probe's worst gap with nothing to do, as long as a trip takes.
  figures.get('idle')!.stall.push(await worstStall(() => sleep(200)));
}
await pool.close();
for (const [name, f] of figures) {
  console.log(
    JSON.stringify({
      bench: 'process_pool_parts',
      case: name === 'idle' ? 'nothing to do (the noise floor), 200 ms' : name,
      records: name === 'idle' ? 0 : COUNT,
      runs: RUNS,
      worst_stall_ms_median: Number(median(f.stall).toFixed(1)),
      worst_stall_ms_max: Number(Math.max(...f.stall).toFixed(1)),
      ...(f.wall.length ? { wall_ms_median: Math.round(median(f.wall)) } : {}),
      loadavg: loadavg().map((l) => Number(l.toFixed(1))),
    }),
  );
}
