/**
 * Fuzz figures: partitions thousands of mutated corpus documents (`test/support/mutants.ts`:
 * truncated, bit-flipped, zeroed and duplicated ranges, corrupted ZIP members, corrupted PDF
 * xrefs, trailers and object streams) through a `PartitionPool` and prints JSON lines:
 * - `fuzz-fast`: per seed and in total, mutants per second and the outcome counts (outputs, coded
 *   errors by code, findings by code: crashes, hangs, memory exhaustion, uncoded errors, messages
 *   showing internals), with strategy `fast`;
 * - `fuzz-hi-res`: the same for a subset with strategy `hi_res` (OCR makes it slow);
 * - `fuzz-finding`: one line per finding, naming the mutant (`s<seed>#<index> <source> <mutation>`)
 *   so it can be made again with `mutant(sources, seed, index)` (`sources`: `loadCorpus()`, filtered
 *   as `--sources` filtered it).
 *
 * Run: `pnpm bench fuzz`, or `node --import tsx packages/nodes/bench/fuzz.bench.ts
 * [--seeds=1,2,3,4,5] [--count=1000] [--hi-res=60] [--processes=2] [--timeout=60] [--sources=<regexp>]`;
 * `--sources` keeps the corpus documents whose names match (`--sources='\.eml$'`).
 */
import { PartitionPool } from '../src/pool/partition-pool.js';
import type { PartitionStrategy } from '../src/partition/types.js';
import { countOutcomes, describeFindings, partitionMutants, type FuzzResult } from '../test/support/fuzz-run.js';
import { CORPUS_DIR, loadCorpus, mutants } from '../test/support/mutants.js';

function arg(name: string, fallback: string): string {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : fallback;
}

const SEEDS = arg('seeds', '1,2,3,4,5').split(',').map(Number);
const COUNT = Number(arg('count', '1000'));
const HI_RES = Number(arg('hi-res', '60'));
const PROCESSES = Number(arg('processes', '2'));
// Images are OCR'd in every strategy (10+ s of CPU for the corpus JPEG): 60 s keeps a busy machine from looking like a hang.
const TIMEOUT_S = Number(arg('timeout', '60'));
const SOURCES = new RegExp(arg('sources', '.'));

const round = (v: number, digits = 2): number => Number(v.toFixed(digits));

async function runSet(bench: string, strategy: PartitionStrategy, seed: number, count: number): Promise<FuzzResult[]> {
  const sources = loadCorpus()!.filter((s) => SOURCES.test(s.name));
  const set = mutants(sources, seed, count);
  const pool = new PartitionPool({ size: PROCESSES, documentTimeoutMs: TIMEOUT_S * 1000 });
  pool.warm();
  const t0 = performance.now();
  const results = await partitionMutants(pool, set, PROCESSES, { strategy });
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  const slowest = results.reduce((a, b) => (b.ms > a.ms ? b : a));
  console.log(
    JSON.stringify({
      bench,
      strategy,
      seed,
      processes: PROCESSES,
      timeout_s: TIMEOUT_S,
      ...countOutcomes(results),
      seconds: round(seconds, 1),
      mutants_per_s: round(count / seconds),
      slowest: { mutant: slowest.mutant.name, ms: Math.round(slowest.ms) },
    }),
  );
  for (const line of describeFindings(results)) console.log(JSON.stringify({ bench: 'fuzz-finding', strategy, finding: line }));
  return results;
}

async function main(): Promise<void> {
  if (!loadCorpus()) {
    console.log(JSON.stringify({ bench: 'fuzz', skipped: `corpus not found in ${CORPUS_DIR}` }));
    return;
  }
  const all: FuzzResult[] = [];
  const t0 = performance.now();
  for (const seed of SEEDS) all.push(...(await runSet('fuzz-fast', 'fast', seed, COUNT)));
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    JSON.stringify({
      bench: 'fuzz-fast',
      strategy: 'fast',
      seeds: SEEDS,
      processes: PROCESSES,
      ...countOutcomes(all),
      seconds: round(seconds, 1),
      mutants_per_s: round(all.length / seconds),
    }),
  );
  // hi_res OCRs every page: a subset of another seed.
  if (HI_RES > 0) await runSet('fuzz-hi-res', 'hi_res', 1000 + SEEDS[0]!, HI_RES);
}

await main();
