/**
 * Where a pooled job's chunking runs, as the caller's event loop feels it. Run:
 * `node --import tsx packages/nodes/bench/pooled-chunk.bench.ts` (it imports the built
 * @quarry/nodes: build first).
 *
 * The 619-page PDF (fast strategy), read by a partition process from its file, then chunked by
 * title (1500 characters, `fast_and_chunk`'s settings) two ways, alternately:
 * - `chunk here`: the elements come back (in parts of some 256 kB) and this process chunks them,
 *   what a pooled job did before;
 * - `chunk in the partition process`: `partitionAndChunk`, only the chunks come back, what a
 *   pooled job's partition node does now for the chunker after it.
 * JSON lines per case: the worst event-loop stall of this process while the document is worked on
 * (the longest gap between the turns of a 1 ms interval, up to 20 ms after), the wall time, and the
 * CPU time of this process, medians over QUARRY_BENCH_RUNS (default 5) runs; the chunks are checked
 * equal. Other work on the machine stretches all of them (the load average is printed).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Element } from '@quarry/core';
// The built package, as users import it (not the sources through tsx's loader).
import { chunkByTitle, PartitionPool, resolveChunkingOptions } from '@quarry/nodes';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PDF = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs', 'DA-619p.pdf');
const RUNS = Number(process.env.QUARRY_BENCH_RUNS ?? 5);

const print = (o: object): void => console.log(JSON.stringify(o));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number): number => Math.round(x * 10) / 10;

if (!existsSync(PDF)) {
  print({ bench: 'pooled-chunk', skipped: `${PDF} not found (the shared corpus beside the repository)` });
  process.exit(0);
}

const request = { filename: 'DA-619p.pdf', strategy: 'fast' as const, unique_element_ids: false };
const options = resolveChunkingOptions('chunk_by_title', { max_characters: 1500, new_after_n_chars: 1125, combine_text_under_n_chars: 500, overlap: 0 });
const pool = new PartitionPool({ size: 1 });

/** Runs `work` while a 1 ms interval turns; its result, the longest gap between turns (up to 20 ms after), its wall and CPU ms. */
async function measured(work: () => Promise<Element[]>): Promise<{ chunks: Element[]; stall: number; wall: number; cpu: number }> {
  let stall = 0;
  let tick = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - tick);
    tick = now;
  }, 1);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const chunks = await work();
  const wall = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  await sleep(20);
  clearInterval(probe);
  return { chunks, stall, wall, cpu: (used.user + used.system) / 1000 };
}

const cases: Array<{ name: string; work: () => Promise<Element[]> }> = [
  { name: 'chunk here', work: async () => chunkByTitle(await pool.partition({ path: PDF }, request), options) },
  {
    name: 'chunk in the partition process',
    work: async () => {
      const result = await pool.partitionAndChunk({ path: PDF }, request, { subtype: 'chunk_by_title', options });
      if ('failure' in result) throw new Error(`${result.failure.code}: ${result.failure.message}`);
      return result.chunks;
    },
  },
];

const figures = new Map(cases.map((c) => [c.name, { stall: [] as number[], wall: [] as number[], cpu: [] as number[] }]));
// A first round of each warms the process and this one's code paths: not counted.
for (const c of cases) await c.work();
for (let run = 0; run < RUNS; run++) {
  const texts: string[] = [];
  for (const c of cases) {
    const m = await measured(c.work);
    texts.push(JSON.stringify(m.chunks.map((e) => [e.type, e.text])));
    const f = figures.get(c.name)!;
    f.stall.push(m.stall);
    f.wall.push(m.wall);
    f.cpu.push(m.cpu);
  }
  if (texts[0] !== texts[1]) throw new Error('the chunks made in the partition process differ from those made here');
}
for (const [name, f] of figures) {
  print({
    bench: 'pooled-chunk',
    case: name,
    runs: RUNS,
    worst_stall_ms: round(median(f.stall)),
    wall_ms: round(median(f.wall)),
    caller_cpu_ms: round(median(f.cpu)),
    stalls_ms: f.stall.map(round),
    load: loadavg().map(round),
  });
}
await pool.close();
