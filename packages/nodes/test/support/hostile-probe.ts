/**
 * Partitions each hostile file (`hostile-files.ts`) in a child process of its own and reports
 * what really happens: a native crash (signal), an unhandled rejection, a hang (timeout), V8 heap
 * exhaustion, a coded error, or success. Never run these files inside a test process.
 *
 * Run from the repository root:
 *   node --import tsx packages/nodes/test/support/hostile-probe.ts [name ...] [--timeout=20] [--heap=1024] [--strategy=fast|hi_res]
 *
 * Names filter the files by substring. Each file is probed with its own strategies unless
 * `--strategy` is given, and its own timeout (default 20 s) unless `--timeout` is. The child is
 * this script with `--child <file> <strategy>`: it reads the file, calls `partitionFile`, and
 * prints JSON lines. Its timeout starts when it says it is about to partition, so loading tsx and
 * the modules does not count against it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileFiles, type HostileOutcome, type ProbeStrategy } from './hostile-files.js';

/** What one child process did. */
export interface ProbeResult {
  outcome: HostileOutcome;
  /** The signal, error code, or element count behind the outcome. */
  detail: string;
  /** The line of stderr that tells most, if any. */
  stderrLine?: string;
  /** Milliseconds from the start of partitioning to the end of the child. */
  ms: number;
  /** The child's peak resident set size in MB (Linux; 0 where /proc is missing). */
  peakRssMb: number;
  /**
   * What partitioning itself added to the child's resident memory in MB: its peak while it
   * partitioned (the high-water mark is reset when it starts, Linux) less its size then (modules
   * loaded, the file read). Unlike `peakRssMb` it leaves out loading the modules, whose peak varies
   * with the load on the machine. Undefined where /proc is missing or the child never got there.
   */
  partitionRssMb?: number;
}

/** The JSON line a child prints. */
type ChildReport =
  | { kind: 'start'; rssMb: number; peakReset: boolean }
  | { kind: 'ok'; elements: number; maxRssMb: number; partitionPeakMb: number }
  | { kind: 'error'; code: string; message: string; maxRssMb: number; partitionPeakMb: number }
  | { kind: 'fatal'; origin: string; name: string; message: string };

const CHILD_FLAG = '--child';
const DEFAULT_TIMEOUT_SECONDS = 20;
const STARTUP_ALLOWANCE_MS = 60_000;

function report(r: ChildReport): void {
  // Synchronous: the process may die right after.
  writeSync(1, `${JSON.stringify(r)}\n`);
}

/** Child side: partitions one file and reports; crashes are left to happen. */
async function runChild(file: string, strategy: ProbeStrategy): Promise<void> {
  // Watches (without handling) what ends the process: an unhandled rejection shows up here with
  // origin 'unhandledRejection' before Node exits with code 1.
  process.on('uncaughtExceptionMonitor', (e: unknown, origin: string) => {
    const err = e instanceof Error ? e : new Error(String(e));
    report({ kind: 'fatal', origin, name: err.name, message: err.message });
  });
  const { partitionFile } = await import('../../src/partition/partition-file.js');
  // A view of the Buffer read, not a copy: a plain Uint8Array (as partitionFile hands its
  // partitioners) without a second copy of the file in this process.
  const read = readFileSync(file);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  // The child's own high-water mark (the parent's sampling can miss a peak just before the end),
  // from /proc: Linux carries the spawning process' size into `process.resourceUsage().maxRSS`.
  const hwm = (): number | undefined => {
    try {
      return hwmMb(readFileSync('/proc/self/status', 'utf8'));
    } catch {
      return undefined;
    }
  };
  const loadedPeakMb = hwm();
  // From here the kernel's high-water mark (VmHWM) counts partitioning only ("5": reset it to now).
  let peakReset = loadedPeakMb !== undefined;
  try {
    if (peakReset) writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    peakReset = false;
  }
  const partitionPeakMb = (): number => (peakReset ? (hwm() ?? 0) : 0);
  const maxRssMb = (): number => (loadedPeakMb === undefined ? Math.round(process.resourceUsage().maxRSS / 1024) : Math.max(loadedPeakMb, hwm() ?? 0));
  report({ kind: 'start', rssMb: Math.round(process.memoryUsage().rss / 2 ** 20), peakReset });
  try {
    const elements = await partitionFile(bytes, { filename: path.basename(file), strategy });
    report({ kind: 'ok', elements: elements.length, maxRssMb: maxRssMb(), partitionPeakMb: partitionPeakMb() });
  } catch (e) {
    const err = e as { code?: unknown; message?: unknown };
    report({
      kind: 'error',
      code: typeof err.code === 'string' ? err.code : 'UNCODED',
      message: String(err.message ?? e),
      maxRssMb: maxRssMb(),
      partitionPeakMb: partitionPeakMb(),
    });
  }
  // A stray rejection may still be on its way; give it a moment, then end (OCR workers linger).
  setTimeout(() => process.exit(0), 300);
}

/** The most telling stderr line: a fatal V8 or native message, else the first error line. */
function telling(stderr: string): string | undefined {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const pick = (re: RegExp): string | undefined => lines.find((l) => re.test(l));
  return pick(/FATAL ERROR|fatal error|Segmentation|Illegal|Abort/i) ?? pick(/Error|Exception/) ?? lines[0];
}

function parseReports(stdout: string): ChildReport[] {
  const out: ChildReport[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as ChildReport);
    } catch {
      // Not one of ours.
    }
  }
  return out;
}

/** The high-water mark of resident memory in MB from a /proc/<pid>/status text, 0 when absent. */
function hwmMb(status: string): number {
  const kb = /VmHWM:\s+(\d+)/.exec(status)?.[1];
  return kb ? Math.round(Number(kb) / 1024) : 0;
}

/** The high-water mark of a live process' resident memory in MB, 0 when unknown. */
async function peakRss(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  try {
    return hwmMb(await readFile(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return 0;
  }
}

const RSS_SAMPLE_MS = 250;

function classify(
  reports: ChildReport[],
  signal: NodeJS.Signals | null,
  code: number | null,
  stderr: string,
  timedOut: boolean,
): Omit<ProbeResult, 'ms' | 'peakRssMb' | 'partitionRssMb'> {
  const stderrLine = telling(stderr);
  const fatal = reports.find((r): r is Extract<ChildReport, { kind: 'fatal' }> => r.kind === 'fatal');
  const done = reports.find((r) => r.kind === 'ok' || r.kind === 'error');
  if (/heap out of memory|Reached heap limit/i.test(stderr)) return { outcome: 'heap', detail: signal ?? `exit ${code}`, stderrLine };
  if (timedOut) return { outcome: 'hang', detail: 'timeout', stderrLine };
  if (signal) return { outcome: 'crash', detail: signal, stderrLine };
  if (fatal?.origin === 'unhandledRejection') {
    // Node wraps a rejection reason it does not take for an Error; its message quotes the reason.
    const reason = /rejected with the reason "(.*)"\.?$/.exec(fatal.message)?.[1];
    return { outcome: 'rejection', detail: reason ?? `${fatal.name}: ${fatal.message}`, stderrLine };
  }
  if (fatal) return { outcome: 'crash', detail: `uncaught ${fatal.name}: ${fatal.message}`, stderrLine };
  if (done?.kind === 'ok') return { outcome: 'ok', detail: `${done.elements} elements`, stderrLine };
  if (done?.kind === 'error') return { outcome: 'error', detail: `${done.code}: ${done.message}`, stderrLine };
  return { outcome: 'crash', detail: `exit ${code} without a report`, stderrLine };
}

/** Options of {@link probeFile}. */
export interface ProbeOptions {
  strategy: ProbeStrategy;
  timeoutMs: number;
  heapMb: number;
}

/** Partitions the file at `file` in a child process and classifies how that went. */
export function probeFile(file: string, options: ProbeOptions): Promise<ProbeResult> {
  const script = fileURLToPath(import.meta.url);
  const args = ['--conditions=source', '--import', 'tsx', `--max-old-space-size=${options.heapMb}`, script, CHILD_FLAG, file, options.strategy];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let started = 0;
    let timedOut = false;
    let peakRssMb = 0;
    // VmHWM is gone once the child exits, so it is sampled while it runs.
    const sampler = setInterval(() => {
      void peakRss(child.pid).then((mb) => {
        peakRssMb = Math.max(peakRssMb, mb);
      });
    }, RSS_SAMPLE_MS);
    const kill = (): void => {
      timedOut = true;
      child.kill('SIGKILL');
    };
    // Until the child starts partitioning, only a generous startup allowance applies.
    let timer = setTimeout(kill, STARTUP_ALLOWANCE_MS);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!started && stdout.includes('"kind":"start"')) {
        started = Date.now();
        clearTimeout(timer);
        timer = setTimeout(kill, options.timeoutMs);
      }
    });
    // Keep only the tail: a runaway child may write a lot.
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-20_000);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(sampler);
      const ms = started ? Date.now() - started : 0;
      const reports = parseReports(stdout);
      let partitionRssMb: number | undefined;
      const start = reports.find((r) => r.kind === 'start');
      for (const r of reports) {
        if (r.kind !== 'ok' && r.kind !== 'error') continue;
        peakRssMb = Math.max(peakRssMb, r.maxRssMb);
        if (start?.peakReset && r.partitionPeakMb > 0) partitionRssMb = Math.max(0, r.partitionPeakMb - start.rssMb);
      }
      resolve({ ...classify(reports, signal, code, stderr, timedOut), ms, peakRssMb, ...(partitionRssMb === undefined ? {} : { partitionRssMb }) });
    });
  });
}

function option(args: readonly string[], name: string): string | undefined {
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/** Parent side: generates, probes and prints one line per file and strategy. */
async function runParent(args: readonly string[]): Promise<void> {
  const filters = args.filter((a) => !a.startsWith('--'));
  const timeoutSeconds = option(args, 'timeout');
  const heapMb = Number(option(args, 'heap') ?? 1024);
  const only = option(args, 'strategy') as ProbeStrategy | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'hostile-'));
  try {
    const t0 = Date.now();
    const files = hostileFiles().filter((f) => filters.length === 0 || filters.some((x) => f.name.includes(x)));
    console.log(`generated ${files.length} files in ${Date.now() - t0} ms; heap ${heapMb} MB`);
    for (const f of files) {
      const file = path.join(dir, f.name);
      writeFileSync(file, f.bytes);
      const timeoutMs = Number(timeoutSeconds ?? f.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
      for (const strategy of only ? [only] : f.strategies) {
        const r = await probeFile(file, { strategy, timeoutMs, heapMb });
        const verdict = r.outcome === f.expect ? 'as expected' : `EXPECTED ${f.expect}`;
        console.log(
          `${f.name} (${f.bytes.byteLength} B, ${strategy}, timeout ${timeoutMs / 1000} s): ${r.outcome} [${r.detail}] after ${r.ms} ms, peak RSS ${r.peakRssMb} MB, ${verdict}`,
        );
        if (r.stderrLine) console.log(`    stderr: ${r.stderrLine.slice(0, 300)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  if (argv[0] === CHILD_FLAG) await runChild(argv[1]!, (argv[2] ?? 'fast') as ProbeStrategy);
  else await runParent(argv);
}
