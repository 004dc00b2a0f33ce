// Fair scheduling, abandoned work and memory of `quarry serve` under a big-document load: JSON lines.
// fairness: 8 clients post the small documents of /work/shared/corpus/docs to the legacy endpoint,
//   first on an idle server, then while 4 clients keep both partition processes busy with the
//   619-page PDF; goal: small p95 under load <= 3 x idle p50 + 0.5 s. Small means small work: a
//   document the server answers alone within 1 s (each is timed alone first); the images and the
//   scan that need OCR (seconds each) are small in bytes only. A second line (server_fairness_mixed)
//   gives the same load with every document under the small-lane size, OCR ones included.
// abort: a client gives up on the 619-page PDF; the time until its partition process stops
//   burning CPU (read from /proc); goal <= 2 s.
// memory: the server's process tree (RSS from /proc) fresh, right after the load, and while idle
//   for 60 s; goal: back within 1.5 x fresh.
// The server is the built `quarry serve` (2 partition processes) in a child process;
// QUARRY_BENCH_SERVE_ARGS adds flags to it (e.g. "--small-lane-processes 2"), QUARRY_BENCH_SERVE_BIN
// runs another build's CLI (an old worktree's, to compare); QUARRY_BENCH_DOCS_OUT names a file that
// gets each document's latencies per phase (p50 / p95 / max), to see which documents make the tail;
// QUARRY_BENCH_SMALL (names, comma-separated) fixes the small work instead of timing each document
// alone, so that runs on a loaded machine compare the same documents; QUARRY_BENCH_MIXED=0 skips
// the mixed phases.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processTree, treeRssBytes } from '../test/process-tree.js';
import { cpuSeconds } from '../test/process-watch.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const docsDir = resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const BIG = 'DA-619p.pdf';
const KEY = 'fairness-bench-key';
const ROUNDS = Number(process.env.QUARRY_BENCH_ROUNDS ?? 6);
const SETTLE_S = Number(process.env.QUARRY_BENCH_SETTLE_S ?? 60);
// A document answered alone within this is small work.
const SMALL_WORK_MS = 1000;
const serveArgs = (process.env.QUARRY_BENCH_SERVE_ARGS ?? '').split(/\s+/).filter(Boolean);
const pinnedSmall = process.env.QUARRY_BENCH_SMALL?.split(',').filter(Boolean);
const mixed = process.env.QUARRY_BENCH_MIXED !== '0';

interface Doc {
  name: string;
  bytes: Uint8Array;
}

/** The partition processes: the server's children. */
function children(pid: number): number[] {
  return processTree(pid).slice(1);
}

function treeRssMb(pid: number): number {
  return Math.round(treeRssBytes(pid) / 2 ** 20);
}

function percentile(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const bin = process.env.QUARRY_BENCH_SERVE_BIN ?? join(repoRoot, 'packages/cli/dist/bin.js');
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--data-dir', dataDir, '--num-processes', '2', '--log-level', 'warn', ...serveArgs], {
    env: { ...process.env, QUARRY_API_KEYS: `${KEY}=bench` },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const url = await new Promise<string>((ok, fail) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (t: string) => {
      err += t;
      const m = /listening on (http:\/\/\S+)\/api\/v1/.exec(err);
      if (m) ok(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`quarry serve exited with ${code}: ${err}`)));
  });
  return { child, base: url };
}

/** One legacy request; status 0 when the connection failed or fetch gave up waiting. */
async function post(base: string, doc: Doc, signal?: AbortSignal): Promise<{ status: number; ms: number }> {
  const form = new FormData();
  form.append('files', new Blob([doc.bytes]), doc.name);
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/general/v0/general`, {
      method: 'POST',
      body: form,
      headers: { 'unstructured-api-key': KEY },
      ...(signal ? { signal } : {}),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  } catch (e) {
    if (signal?.aborted) throw e;
    // fetch gives up on headers after 300 s: counted with its time, not as an answer.
    return { status: 0, ms: performance.now() - t0 };
  }
}

/** 8 clients, each posting `ROUNDS` small documents one after another. */
async function smallClients(base: string, small: readonly Doc[]): Promise<Phase> {
  const ms: number[] = [];
  const byDoc = new Map<string, number[]>();
  const statuses: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: 8 }, async (_, c) => {
      for (let r = 0; r < ROUNDS; r++) {
        const doc = small[(c + r * 8) % small.length]!;
        const { status, ms: t } = await post(base, doc);
        statuses[status] = (statuses[status] ?? 0) + 1;
        ms.push(t);
        byDoc.set(doc.name, [...(byDoc.get(doc.name) ?? []), t]);
      }
    }),
  );
  return { ms, byDoc, statuses };
}

interface Phase {
  ms: number[];
  /** Each document's latencies. */
  byDoc: Map<string, number[]>;
  statuses: Record<string, number>;
}

/** One line per document and phase, slowest p95 first: which documents make a phase's tail. */
function perDocument(phases: Record<string, Phase>, docs: readonly Doc[], alone: ReadonlyMap<string, number>): string {
  const lines: string[] = [];
  for (const [phase, { byDoc }] of Object.entries(phases)) {
    const rows = [...byDoc].map(([name, ms]) => ({
      phase,
      name,
      kb: Math.round(docs.find((d) => d.name === name)!.bytes.byteLength / 1024),
      alone_ms: Math.round(alone.get(name)!),
      n: ms.length,
      p50_ms: Math.round(percentile(ms, 50)),
      p95_ms: Math.round(percentile(ms, 95)),
      max_ms: Math.round(Math.max(...ms)),
    }));
    rows.sort((a, b) => b.p95_ms - a.p95_ms);
    lines.push(...rows.map((r) => JSON.stringify(r)));
  }
  return `${lines.join('\n')}\n`;
}

/** Waits until every partition process has been burning CPU for a moment. */
async function whenBusy(serverPid: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const kids = children(serverPid);
    const before = kids.map((k) => cpuSeconds(k));
    await sleep(500);
    const busy = kids.filter((k, j) => cpuSeconds(k) - before[j]! > 0.2).length;
    if (busy >= 2) return;
  }
}

/** Seconds until no partition process burns CPU (under 5% over 100 ms) after an abort at `t0`. */
async function idleAfter(serverPid: number, t0: number): Promise<number> {
  for (;;) {
    const kids = children(serverPid);
    const before = kids.map((k) => cpuSeconds(k));
    await sleep(100);
    if (kids.every((k, j) => cpuSeconds(k) - before[j]! < 0.005)) return (performance.now() - t0 - 100) / 1000;
    if (performance.now() - t0 > 120_000) return Infinity;
  }
}

async function main(): Promise<void> {
  if (!existsSync(docsDir)) {
    console.log(JSON.stringify({ bench: 'server_fairness', skipped: `corpus not found at ${docsDir}` }));
    return;
  }
  const bytesSmall = readdirSync(docsDir)
    .filter((n) => n !== BIG && n !== 'README.md')
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(docsDir, name))) }));
  const big: Doc = { name: BIG, bytes: new Uint8Array(readFileSync(join(docsDir, BIG))) };
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-fairness-'));
  const { child, base } = await startServer(dataDir);
  const pid = child.pid!;
  try {
    // Fresh: started, and its processes done with their start-up work (a warmed pool's warm-up).
    await sleep(3000);
    await idleAfter(pid, performance.now());
    const freshMb = treeRssMb(pid);
    // Warm-up: every partitioner loaded in both processes.
    await smallClients(base, bytesSmall);
    // Each document alone: what it costs without waiting for others.
    const alone = new Map<string, number>();
    for (const doc of bytesSmall) alone.set(doc.name, (await post(base, doc)).ms);
    const small = bytesSmall.filter((d) => (pinnedSmall ? pinnedSmall.includes(d.name) : alone.get(d.name)! <= SMALL_WORK_MS));
    const heavy = bytesSmall.filter((d) => !small.includes(d)).map((d) => `${d.name} ${Math.round(alone.get(d.name)!)} ms`);
    const idle = await smallClients(base, small);
    const none: Phase = { ms: [], byDoc: new Map(), statuses: {} };
    const idleMixed = mixed ? await smallClients(base, bytesSmall) : none;

    // Load: 4 clients keep posting the big PDF until the small clients are done.
    const stop = new AbortController();
    let bigDone = 0;
    const bigClients = Array.from({ length: 4 }, async () => {
      while (!stop.signal.aborted) {
        try {
          if ((await post(base, big, stop.signal)).status === 200) bigDone++;
        } catch {
          // aborted at the end of the load
        }
      }
    });
    await whenBusy(pid);
    const loaded = await smallClients(base, small);
    const loadedMixed = mixed ? await smallClients(base, bytesSmall) : none;
    stop.abort();
    await Promise.all(bigClients);
    const abortOfLoad = await idleAfter(pid, performance.now());
    const docsOut = process.env.QUARRY_BENCH_DOCS_OUT;
    if (docsOut) writeFileSync(docsOut, perDocument({ idle, loaded, idleMixed, loadedMixed }, bytesSmall, alone));
    const afterMb = treeRssMb(pid);

    const idleP50 = percentile(idle.ms, 50);
    const loadedP95 = percentile(loaded.ms, 95);
    const budget = 3 * idleP50 + 500;
    console.log(
      JSON.stringify({
        bench: 'server_fairness',
        clients: '8 small + 4 x DA-619p.pdf',
        partition_processes: 2,
        requests_per_phase: idle.ms.length,
        load_avg_1m: +loadavg()[0]!.toFixed(2),
        idle_p50_ms: Math.round(idleP50),
        idle_p95_ms: Math.round(percentile(idle.ms, 95)),
        loaded_p50_ms: Math.round(percentile(loaded.ms, 50)),
        loaded_p95_ms: Math.round(loadedP95),
        loaded_max_ms: Math.round(Math.max(...loaded.ms)),
        budget_ms: Math.round(budget),
        met: loadedP95 <= budget,
        big_documents_done: bigDone,
        statuses_idle: idle.statuses,
        statuses_loaded: loaded.statuses,
        left_out_as_heavy: heavy,
      }),
    );
    console.log(
      JSON.stringify({
        bench: 'server_fairness_mixed',
        documents: bytesSmall.length,
        requests_per_phase: idleMixed.ms.length,
        idle_p50_ms: Math.round(percentile(idleMixed.ms, 50)),
        idle_p95_ms: Math.round(percentile(idleMixed.ms, 95)),
        loaded_p50_ms: Math.round(percentile(loadedMixed.ms, 50)),
        loaded_p95_ms: Math.round(percentile(loadedMixed.ms, 95)),
        loaded_max_ms: Math.round(Math.max(...loadedMixed.ms)),
        statuses_loaded: loadedMixed.statuses,
      }),
    );

    // A client gives up on the big PDF after 3 s.
    const ac = new AbortController();
    const giving = post(base, big, ac.signal).catch(() => undefined);
    await whenBusy(pid).catch(() => undefined);
    await sleep(3000);
    const t0 = performance.now();
    ac.abort();
    await giving;
    const abortS = await idleAfter(pid, t0);
    console.log(
      JSON.stringify({
        bench: 'server_abort',
        load_avg_1m: +loadavg()[0]!.toFixed(2),
        disconnect_to_idle_s: +abortS.toFixed(2),
        load_end_to_idle_s: +abortOfLoad.toFixed(2),
        goal: '<= 2 s',
      }),
    );

    // Memory while idle.
    const samples: Array<[number, number]> = [];
    const t1 = performance.now();
    while (performance.now() - t1 < SETTLE_S * 1000) {
      await sleep(5000);
      samples.push([Math.round((performance.now() - t1) / 1000), treeRssMb(pid)]);
    }
    const back = samples.find(([, mb]) => mb <= 1.5 * freshMb);
    console.log(
      JSON.stringify({
        bench: 'server_memory',
        load_avg_1m: +loadavg()[0]!.toFixed(2),
        fresh_mb: freshMb,
        after_load_mb: afterMb,
        after_idle_mb: samples.at(-1)?.[1],
        back_within_1_5x_after_s: back ? back[0] : null,
        samples,
        goal: `<= ${Math.round(1.5 * freshMb)} MB within ${SETTLE_S} s`,
      }),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
