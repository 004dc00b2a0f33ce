// Distributed scaling: JSON line.
// distributed_speedup: the PDFs of /work/shared/corpus/docs with a text layer, repeated, partitioned
// (fast) by `quarry-worker` processes (started with the Node options of its shebang line) through Redis: one worker against two, each worker running 4
// tasks at once, driven by runDistributed as `quarry run --redis` does, writing element JSON to a
// local directory. speedup = 1-worker time / 2-worker time (goal >= 1.7 on 2 cores). The same
// corpus through engine.run in this process is reported beside them.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '@quarry/core';
import { connectorsPlugin } from '@quarry/connectors';
import { nodesPlugin } from '@quarry/nodes';
import { runDistributed } from '@quarry/distributed';
import { redisSkipReason, startRedisServer } from '../test/support/redis-server.js';
// `quarry-worker` is started as its shebang line runs it: `node <options> worker-bin.js ...`.
import { WORKER_BIN, shebangNodeOptions } from '../../cli/test/run-cli.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const docsDir = resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
// Image-only scans have nothing to read with the fast strategy; the 619-page manual alone would
// outlast the rest and measure one document, not the workers.
const EXCLUDED = new Set(['loremipsum-flat.pdf', 'DA-619p.pdf']);
// 180 documents: each round runs several seconds, so a job's start (Redis, plan, connectors) does not dominate.
const REPEAT = Number(process.env.QUARRY_BENCH_REPEAT ?? 30);
const ROUNDS = Number(process.env.QUARRY_BENCH_ROUNDS ?? 7);
const TASKS_PER_WORKER = 4;

const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
const plan = engine.build({
  name: 'distributed-bench',
  nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast', unique_element_ids: false } }],
});

function makeCorpus(dir: string): number {
  const pdfs = readdirSync(docsDir)
    .filter((n) => n.endsWith('.pdf') && !EXCLUDED.has(n))
    .sort();
  for (let r = 0; r < REPEAT; r++) {
    mkdirSync(join(dir, String(r)), { recursive: true });
    for (const n of pdfs) copyFileSync(join(docsDir, n), join(dir, String(r), n));
  }
  return pdfs.length * REPEAT;
}

async function startWorkers(url: string, queue: string, n: number, nodeOptions: readonly string[]): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<ChildProcess>((resolveReady, reject) => {
          const child = spawn(
            process.execPath,
            [...nodeOptions, WORKER_BIN, '--redis', url, '--queue', queue, '--concurrency', String(TASKS_PER_WORKER), '--name', `${queue}-${i}`],
            { stdio: ['ignore', 'ignore', 'pipe'] },
          );
          let log = '';
          child.stderr?.on('data', (d) => {
            log += d;
            if (log.includes(': ready on queue')) resolveReady(child);
          });
          child.once('exit', (code) => reject(new Error(`worker exited with ${code}: ${log}`)));
        }),
    ),
  );
}

async function timedDistributed(url: string, queue: string, input: string, output: string, expected: number): Promise<number> {
  const t0 = performance.now();
  const summary = await runDistributed(engine, plan, {
    redis: url,
    queue,
    source: { type: 'local', config: { path: input } },
    destination: { type: 'local', config: { path: output } },
  }).done;
  if (summary.counts.written !== expected) throw new Error(`${queue}: ${JSON.stringify(summary.counts)} ${JSON.stringify(summary.failures.slice(0, 3))}`);
  return performance.now() - t0;
}

async function timedInProcess(input: string, output: string, expected: number): Promise<number> {
  const t0 = performance.now();
  const summary = await engine.run(plan, {
    source: { type: 'local', config: { path: input } },
    destination: { type: 'local', config: { path: output } },
    concurrency: TASKS_PER_WORKER,
  }).done;
  if (summary.counts.written !== expected) throw new Error(JSON.stringify(summary.counts));
  return performance.now() - t0;
}

const min = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  if (!existsSync(docsDir)) {
    console.log(JSON.stringify({ bench: 'distributed_speedup', skipped: `corpus not found at ${docsDir}` }));
    return;
  }
  if (redisSkipReason) {
    console.log(JSON.stringify({ bench: 'distributed_speedup', skipped: redisSkipReason }));
    return;
  }
  if (!existsSync(WORKER_BIN)) throw new Error(`${WORKER_BIN} not built: run pnpm bench (it builds first)`);
  const tmp = mkdtempSync(join(tmpdir(), 'quarry-dbench-'));
  const redis = await startRedisServer();
  const workers: ChildProcess[] = [];
  try {
    const input = join(tmp, 'in');
    const documents = makeCorpus(input);
    const nodeOptions = shebangNodeOptions(WORKER_BIN);
    workers.push(...(await startWorkers(redis.url, 'one', 1, nodeOptions)), ...(await startWorkers(redis.url, 'two', 2, nodeOptions)));
    // Warm-up: every worker has loaded and JIT-compiled the partitioners before timing starts.
    await timedDistributed(redis.url, 'one', input, join(tmp, 'out1'), documents);
    await timedDistributed(redis.url, 'two', input, join(tmp, 'out2'), documents);
    await timedInProcess(input, join(tmp, 'out0'), documents);
    const one: number[] = [];
    const two: number[] = [];
    const inproc: number[] = [];
    // Interleaved rounds: a load spike on a shared machine hits every variant alike.
    for (let r = 0; r < ROUNDS; r++) {
      one.push(await timedDistributed(redis.url, 'one', input, join(tmp, 'out1'), documents));
      two.push(await timedDistributed(redis.url, 'two', input, join(tmp, 'out2'), documents));
      inproc.push(await timedInProcess(input, join(tmp, 'out0'), documents));
    }
    console.log(
      JSON.stringify({
        bench: 'distributed_speedup',
        documents,
        corpus: 'corpus PDFs with a text layer (fast), local source and destination',
        workers: `quarry-worker processes (node ${nodeOptions.join(' ')}), ${TASKS_PER_WORKER} tasks each, BullMQ on a loopback redis-server`,
        cores: availableParallelism(),
        load_avg_1m: +loadavg()[0]!.toFixed(2),
        in_process_ms: +min(inproc).toFixed(0),
        workers1_ms: +min(one).toFixed(0),
        workers2_ms: +min(two).toFixed(0),
        speedup: +(min(one) / min(two)).toFixed(3),
        median_speedup: +(median(one) / median(two)).toFixed(3),
        overhead_vs_in_process: +(min(one) / min(inproc)).toFixed(3),
        docs_per_s_2: +((documents / min(two)) * 1000).toFixed(2),
        goal: 'speedup >= 1.7 on 2 cores',
        stat: `min of ${ROUNDS} interleaved rounds`,
      }),
    );
  } finally {
    for (const w of workers) w.kill('SIGKILL');
    await redis.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
