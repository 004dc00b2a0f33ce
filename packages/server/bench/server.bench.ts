// The server under load, as an operator would drive it: `quarry serve` (built) on loopback with
// 2 partition processes, its legacy endpoint POST /general/v0/general. JSON lines:
// server_mixed: N clients for D seconds over the small documents of /work/shared/corpus/docs and
//   DA-619p.pdf (one client in eight posts the 619-page PDF, the others the small ones in turn);
//   a 503 is retried after its Retry-After, as the unstructured-client SDK does. Throughput,
//   latency percentiles per document size, status counts, peak RSS of the process tree, worst
//   /healthcheck (polled every 250 ms).
// server_burst: 200 concurrent 5 MB uploads at once (bytes the partition process refuses once
//   read: intake, staging and the queue are measured, not one parser); status counts, peak tree
//   RSS, worst /healthcheck.
// QUARRY_BENCH_CLIENTS (default 32), QUARRY_BENCH_SECONDS (default 60), QUARRY_BENCH_PROCESSES (2);
// QUARRY_BENCH_SERVE_BIN: another build's CLI (bin.js) to compare, e.g. main's checkout;
// QUARRY_BENCH_ONLY=burst|mixed runs one of the two.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { treeRssBytes } from '../test/process-tree.js';
import { cpuSeconds } from '../test/process-watch.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const docsDir = resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const CLIENTS = Number(process.env.QUARRY_BENCH_CLIENTS ?? 32);
const SECONDS = Number(process.env.QUARRY_BENCH_SECONDS ?? 60);
const PROCESSES = Number(process.env.QUARRY_BENCH_PROCESSES ?? 2);
const KEY = 'bench-key-0123456789';
const BIG = 'DA-619p.pdf';
// Not documents, or image-only work the fast default would not read: left out of the mix.
const EXCLUDED = new Set([BIG, 'README.md', 'loremipsum-flat.pdf', 'layout-parser-paper-with-table.jpg', 'table-multi-row-column-cells.png']);
const BOUNDARY = 'bench-boundary';

interface Doc {
  name: string;
  bytes: Buffer;
}

interface Answer {
  status: number;
  ms: number;
  retryAfter?: number;
}

function post(origin: string, doc: Doc): Promise<Answer> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${doc.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const t0 = performance.now();
  return new Promise((resolvePost) => {
    const req = request(
      `${origin}/general/v0/general`,
      {
        method: 'POST',
        headers: {
          'unstructured-api-key': KEY,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': String(head.length + doc.bytes.length + tail.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const retry = Number(res.headers['retry-after']);
          resolvePost({ status: res.statusCode ?? 0, ms: performance.now() - t0, ...(Number.isFinite(retry) ? { retryAfter: retry } : {}) });
        });
      },
    );
    req.on('error', () => resolvePost({ status: 0, ms: performance.now() - t0 }));
    req.write(head);
    req.write(doc.bytes);
    req.end(tail);
  });
}

// The probe runs in a process of its own: the clients' uploads must not delay its own event loop.
const PROBE = `const url = process.argv[1];
const tick = async () => {
  const t0 = performance.now();
  await fetch(url).then((r) => r.text()).catch(() => undefined);
  process.stdout.write((performance.now() - t0).toFixed(1) + '\\n');
  setTimeout(tick, 250);
};
tick();`;

/**
 * Polls /healthcheck every 250 ms from a separate process. `ready` resolves after its first answer:
 * the probe's own start-up (process, fetch's first load) must not count as the server's latency.
 * `stop` gives the worst latency (ms) seen after `ready`.
 */
function healthProbe(origin: string): { ready: Promise<void>; stop: () => number } {
  let worst = 0;
  let warm = false;
  let onReady = (): void => {};
  const ready = new Promise<void>((r) => (onReady = r));
  const child = spawn(process.execPath, ['-e', PROBE, `${origin}/healthcheck`], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (d: Buffer) => {
    for (const line of d.toString().split('\n')) {
      if (!line) continue;
      if (warm) worst = Math.max(worst, Number(line));
      warm = true;
      onReady();
    }
  });
  return {
    ready,
    stop: () => {
      child.kill();
      return worst;
    },
  };
}

/** Samples the RSS of a process tree every 100 ms; returns a stop function giving the peak (bytes). */
function rssProbe(pid: number): () => number {
  let peak = treeRssBytes(pid);
  const timer = setInterval(() => (peak = Math.max(peak, treeRssBytes(pid))), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, treeRssBytes(pid));
  };
}

async function startServe(dataDir: string): Promise<{ origin: string; pid: number; stop(): Promise<void> }> {
  const keys = join(dataDir, 'keys.txt');
  writeFileSync(keys, `${KEY}=bench\n`);
  const bin = process.env.QUARRY_BENCH_SERVE_BIN ?? join(repoRoot, 'packages', 'cli', 'dist', 'bin.js');
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--data-dir', dataDir, '--keys-file', keys, '--num-processes', String(PROCESSES), '--log-level', 'warn'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const base = await new Promise<string>((ok, fail) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) ok(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`quarry serve exited with ${code}: ${err}`)));
  });
  return {
    origin: base.replace(/\/api\/v1$/, ''),
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function percentiles(values: number[]): { n: number; p50: number; p95: number; p99: number; max: number } {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number): number => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
  return { n: s.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: Math.round(s.at(-1) ?? 0) };
}

const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
function tally(statuses: number[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
  return t;
}

async function mixed(small: Doc[], big: Doc): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-server-'));
  const server = await startServe(dataDir);
  try {
    const fresh = treeRssBytes(server.pid);
    const stopRss = rssProbe(server.pid);
    const health = healthProbe(server.origin);
    await health.ready;
    const end = performance.now() + SECONDS * 1000;
    const latencies: Record<'small' | 'large', number[]> = { small: [], large: [] };
    const statuses: number[] = [];
    const bigClients = Math.max(1, Math.floor(CLIENTS / 8));
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = c; performance.now() < end; i += CLIENTS) {
          const isBig = c < bigClients;
          const doc = isBig ? big : small[i % small.length]!;
          const a = await post(server.origin, doc);
          statuses.push(a.status);
          if (a.status === 503) {
            await new Promise((r) => setTimeout(r, (a.retryAfter ?? 1) * 1000));
            continue;
          }
          latencies[isBig ? 'large' : 'small'].push(a.ms);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const answered = latencies.small.length + latencies.large.length;
    console.log(
      JSON.stringify({
        bench: 'server_mixed',
        clients: CLIENTS,
        big_clients: bigClients,
        processes: PROCESSES,
        seconds: Math.round(seconds),
        answered,
        throughput_per_s: Number((answered / seconds).toFixed(2)),
        status: tally(statuses),
        latency_ms: { small: percentiles(latencies.small), large: percentiles(latencies.large) },
        fresh_tree_rss_mb: mb(fresh),
        ...serverFigures(stopRss, health.stop),
      }),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What both benches report of the server and the machine once the load is over. */
function serverFigures(stopRss: () => number, stopHealth: () => number): { peak_tree_rss_mb: number; healthcheck_worst_ms: number; loadavg: number[] } {
  return { peak_tree_rss_mb: mb(stopRss()), healthcheck_worst_ms: Math.round(stopHealth()), loadavg: loadavg().map((l) => Number(l.toFixed(1))) };
}

async function burst(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quarry-bench-burst-'));
  const server = await startServe(dataDir);
  try {
    const stopRss = rssProbe(server.pid);
    const health = healthProbe(server.origin);
    await health.ready;
    const file: Doc = { name: 'blob.bin', bytes: randomBytes(5 * 1024 * 1024) };
    const t0 = performance.now();
    const cpu0 = cpuSeconds(server.pid, server.pid);
    const answers = await Promise.all(Array.from({ length: 200 }, () => post(server.origin, file)));
    console.log(
      JSON.stringify({
        bench: 'server_burst',
        uploads: 200,
        upload_mb: 5,
        processes: PROCESSES,
        seconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
        status: tally(answers.map((a) => a.status)),
        latency_ms: percentiles(answers.map((a) => a.ms)),
        main_thread_cpu_s: Number((cpuSeconds(server.pid, server.pid) - cpu0).toFixed(2)),
        ...serverFigures(stopRss, health.stop),
      }),
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(docsDir, BIG))) {
    console.log(JSON.stringify({ bench: 'server', skipped: `${docsDir} (the shared corpus beside the repository) is absent` }));
    return;
  }
  const small = readdirSync(docsDir)
    .filter((n) => !EXCLUDED.has(n))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(docsDir, name)) }));
  const only = process.env.QUARRY_BENCH_ONLY;
  if (only !== 'mixed') await burst();
  if (only !== 'burst') await mixed(small, { name: BIG, bytes: readFileSync(join(docsDir, BIG)) });
}

await main();
