// Run by partition-pool.test.ts in a process of its own, so that /proc shows only this pool's
// process: its resident memory fresh, after partitioning the document named on the command line,
// and once the pool has recycled it for idleness. Prints one JSON line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PartitionPool } from '../../src/pool/partition-pool.js';

const PAGE_BYTES = 4096;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number): number => Math.round((Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES) / 2 ** 20);

/** The RSS of a process once it has stopped changing (it has loaded what it loads). */
async function settledMb(pid: number): Promise<number> {
  let last = rssMb(pid);
  for (;;) {
    await sleep(500);
    const now = rssMb(pid);
    if (Math.abs(now - last) < 2) return now;
    last = now;
  }
}

const file = process.argv[2]!;
const pool = new PartitionPool({ size: 1, idleTimeoutMs: 3000, smallLaneProcesses: 0 });
pool.warm();
const [first] = pool.pids;
await pool.partition(new TextEncoder().encode('A first small document.'), { filename: 'first.txt' });
const freshMb = await settledMb(first!);
const elements = await pool.partition(new Uint8Array(readFileSync(file)), { filename: path.basename(file), strategy: 'fast' });
const afterMb = rssMb(first!);
while (pool.pids[0] === first) await sleep(100);
const [second] = pool.pids;
const recycledMb = await settledMb(second!);
console.log(JSON.stringify({ elements: elements.length, freshMb, afterMb, recycledMb, replaced: second !== first && second !== undefined }));
await pool.close();
