import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { toBackground, toForeground } from './background-priority.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage, QuarryError } from '../errors.js';
import { LaneQueue, type Lane } from './lane-queue.js';
import type {
  AbortMessage,
  HeavyMessage,
  PartMessage,
  PartTakenMessage,
  ReadyMessage,
  SetupMessage,
  TaskMessage,
  WarmedUpMessage,
  WarmUpMessage,
  WorkerReplyMessage,
} from './worker-protocol.js';

export type { WarmUpOptions, WorkerTaskHandler, WorkerWarmUp } from './worker-protocol.js';

/** Options of {@link ProcessPool}. */
export interface ProcessPoolOptions {
  /**
   * The worker module, whose default export is the task function ({@link WorkerTaskHandler}): a
   * `.js` file, or a `.ts` file when running from sources (tests).
   */
  workerUrl: URL;
  /** Number of worker processes (default: available parallelism). */
  size?: number;
  /** Names the processes in error messages, e.g. `partition` ("the partition process crashed"). */
  name?: string;
  /** A task running longer than this fails with `NODE_TIMEOUT` and its process is killed (default 0: no limit). */
  taskTimeoutMs?: number;
  /**
   * V8 heap limit of each process in MB; a task that exhausts it fails with `DOCUMENT_TOO_LARGE`.
   * Default: Node's own (a quarter of the machine's memory, at most about 4 GB on 64-bit). Setting
   * it costs each process tens of milliseconds at start: with any heap flag V8 will not use the
   * code that Node compiled ahead of time for its built-in modules, and compiles them again.
   */
  heapLimitMb?: number;
  /**
   * Resident memory limit of each process in MB, native allocations included (decoded images), read
   * from `/proc` every 100 ms while a task runs on Linux; over it the task fails with
   * `DOCUMENT_TOO_LARGE` (default 4096; 0: no limit).
   */
  memoryLimitMb?: number;
  /**
   * Further Node options of each process, e.g. `['--max-semi-space-size=32']`. A V8 flag costs each
   * process some 30 ms of CPU at start: Node then compiles its built-ins without their code cache.
   */
  execArgv?: string[];
  /**
   * A running task whose signal aborts is withdrawn: its caller's promise rejects at once, the
   * task's own signal aborts in its process, and the process is killed (and replaced) if it has
   * not stopped within this many ms. Default 1000; 0 kills at once.
   */
  abortGraceMs?: number;
  /** A process is ended and replaced after this many tasks, so that what it accumulates is returned (default 100; 0: never). */
  maxTasksPerProcess?: number;
  /**
   * A process that has run tasks and then sits idle this long is ended, returning its memory; a
   * warmed pool ({@link ProcessPool.warm}) starts a fresh one in its place (default 30 000; 0: never).
   */
  idleTimeoutMs?: number;
  /**
   * The small lane: `processes` processes (default 1) beyond `size` that take only tasks of cost at
   * most `maxCost` (the `cost` given to {@link ProcessPool.run}). While big tasks hold every other
   * process, small ones start there instead of waiting behind them. They start on demand and end
   * when idle like the others. Default: no lane, one first-come first-served queue.
   *
   * A lane task that says it will work long (its task function calls `heavy()`), or has worked
   * `handoffMs` (default 2000; 0: never), was small in cost but not in work (an image to OCR, say):
   * it hands the lane off. Another lane process takes the small work, and the task's own process
   * is ended after that task. At most `size` (and at least `processes`) hand-offs run at a time:
   * long work, whatever its cost, runs beside big work, as many at a time as there are general
   * processes; past that a long task keeps its lane process until one ends. Work is the
   * process's CPU time where `/proc` tells it (a loaded machine stretches wall time, not work), else
   * wall time, less the process's own setup (`processSetup` of `@quarry/core/process-setup`: an
   * engine starting for the first task that needs it).
   * With `background`, the other processes and a handed-off one run at background CPU priority
   * (10 nicer than the caller on Linux), so that under contention the lane and the caller (a server's
   * event loop) get the cores first.
   *
   * With `standby` (default: when the lane has one process), a warmed pool ({@link ProcessPool.warm}) keeps one more lane
   * process started and warmed up as a spare, at background priority with `background` (raised to
   * the caller's when it is promoted, where the system allows raising priority; where it does not,
   * later spares warm at normal priority). A hand-off promotes it at once, so small work goes on in
   * a warm process, and a new spare starts behind it. It costs one process's memory while idle;
   * with two lane processes or more, a hand-off leaves another lane process serving, so none is kept.
   *
   * Only one lane process at a time warms up fully; the spare and the others warm up light
   * (`WarmUpOptions.light`: what is cheap to keep idle, not an OCR engine) and load the rest on
   * first use, and a spare promoted with no fully warmed lane process left warms up again, fully.
   */
  smallLane?: { maxCost: number; processes?: number; handoffMs?: number; background?: boolean; standby?: boolean };
}

/** Per-task options of {@link ProcessPool.run}. */
export interface PoolRunOptions<P = never> {
  /** Withdraws the task: it leaves the queue, or its process is told to stop (and killed after `abortGraceMs`). */
  signal?: AbortSignal;
  /** The task's estimated cost (a document's bytes, say), for the small lane; default 0. */
  cost?: number;
  /**
   * Takes the result in parts: the task function gets a `part` sender, and each part it sends
   * arrives here, in order, before the task's promise resolves, one part per event-loop turn of this
   * process (the next is asked for only after the turn). So a long result (the elements of a
   * 600-page PDF) arrives as many small messages instead of one whose deserialization holds the
   * event loop. Parts of a task that fails or is withdrawn stop arriving, and its promise rejects:
   * what arrived is not the whole result. A throw here withdraws the task with `NODE_FAILED`.
   */
  onPart?: (part: P) => void;
}

const DEFAULT_MEMORY_LIMIT_MB = 4096;
const DEFAULT_ABORT_GRACE_MS = 1000;
const DEFAULT_MAX_TASKS_PER_PROCESS = 100;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_HANDOFF_MS = 2000;
const MEMORY_CHECK_MS = 100;
// Linux reports CPU time in clock ticks of 1/100 s (USER_HZ) on every common architecture.
const CLOCK_TICKS_PER_S = 100;
const STDERR_TAIL_CHARS = 4096;
const PAGE_BYTES = 4096;
// What V8 prints when a heap limit is reached, before it aborts the process.
const HEAP_EXHAUSTED = /heap out of memory|Reached heap limit|Allocation failed/i;

/** The pool's entry module next to this file: `.js` when built, `.ts` when run from sources. */
function entryPath(): string {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./process-entry.${ext}`, import.meta.url).pathname;
}

// tsx rewrites each module holding a dynamic import() and builds a source map of it: pdf.js's
// 3.3 MB vendored into @quarry/nodes took 5-12 s to load that way on a busy machine (0.5 s as is),
// which ran a small PDF past a test's time limit. Files in a `vendor/` folder are plain JavaScript
// already: these hooks, registered after tsx's and so asked first, load them unchanged.
const VENDORED_AS_IS = `import { readFile } from 'node:fs/promises';
export async function load(url, context, next) {
  return /^file:.*\\/vendor\\/.*\\.mjs$/.test(url) ? { format: 'module', source: await readFile(new URL(url)), shortCircuit: true } : next(url, context);
}`;

/**
 * Node options of processes that load `.ts` modules (sources, under tests): tsx's ESM hooks and the
 * `source` export condition, so workspace packages resolve to their sources as under vitest.
 */
function tsExecArgv(): string[] {
  const api = pathToFileURL(path.join(path.dirname(createRequire(import.meta.url).resolve('tsx/esm/api')), 'index.mjs')).href;
  const vendored = `data:text/javascript,${encodeURIComponent(VENDORED_AS_IS)}`;
  const register = `import { register } from ${JSON.stringify(api)}; import { register as hooks } from 'node:module'; register(); hooks(${JSON.stringify(vendored)});`;
  return ['--conditions=source', '--import', `data:text/javascript,${encodeURIComponent(register)}`];
}

function abortError(signal: AbortSignal): QuarryError {
  const reason: unknown = signal.reason;
  if (reason instanceof QuarryError) return reason;
  return new QuarryError('JOB_ABORTED', `the task was aborted${reason === undefined ? '' : `: ${errorMessage(reason)}`}`);
}

/** CPU seconds (user + system) a process has used, or undefined where `/proc` cannot tell. */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** Resident set size of a process in MB, or undefined where `/proc` cannot tell. */
function residentMb(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? (pages * PAGE_BYTES) / (1024 * 1024) : undefined;
  } catch {
    return undefined;
  }
}

interface Pending<T, R> {
  task: T;
  cost: number;
  signal: AbortSignal | undefined;
  /** Takes the parts of its result ({@link PoolRunOptions.onPart}). */
  onPart?: (part: unknown) => void;
  /** Its promise has resolved or rejected (a withdrawn task's process may still be stopping). */
  settled?: boolean;
  resolve(result: R): void;
  reject(error: QuarryError): void;
  onAbort?: () => void;
}

/** What a pool does with the events of its processes. */
interface SlotOwner<T, R> {
  ready(slot: Slot<T, R>): void;
  reply(slot: Slot<T, R>, message: WorkerReplyMessage<R>): void;
  exit(slot: Slot<T, R>, code: number | null, signal: NodeJS.Signals | null): void;
  heavy(slot: Slot<T, R>, message: HeavyMessage): void;
  part(slot: Slot<T, R>, message: PartMessage<unknown>): void;
  setup(slot: Slot<T, R>, message: SetupMessage): void;
}

interface Slot<T, R> {
  child: ChildProcess;
  stderr: string;
  /** The worker module has loaded (or failed to): time limits count from here, not from the process start. */
  ready: boolean;
  /** The process's V8 heap limit in MB, as it reported when ready. */
  heapLimitMb?: number;
  /** The pool of the process; none while it waits, prestarted, for one. */
  owner?: SlotOwner<T, R>;
  /** Which tasks it takes. */
  lane: Lane;
  /** A lane process whose task outran the hand-off time: no longer counted in the lane, ended after the task. */
  handedOff?: boolean;
  /** The warmed pool's spare lane process: it takes no task until a hand-off promotes it into the lane. */
  standby?: boolean;
  /** Tasks it has finished. */
  tasks: number;
  /** Settles when the warm-ups it was asked for have ended, or the process has. */
  warming?: Promise<void>;
  /** Warm-ups asked and not yet answered. */
  warmUps?: number;
  /** It was asked to warm up fully (not light): it keeps what is costly to keep. */
  warmedFully?: boolean;
  /** Settles `warming`. */
  warmedUp?: () => void;
  /** Ends it once it has been idle long enough. */
  idle?: NodeJS.Timeout;
  running?: {
    id: number;
    pending: Pending<T, R>;
    timer?: NodeJS.Timeout;
    /** Watches the process's memory and, in the lane, its work. */
    watch?: NodeJS.Timeout;
    /** Set when the task was withdrawn: the process was told to stop and is killed when this fires. */
    grace?: NodeJS.Timeout;
    /** CPU seconds of the process when the task started (a lane task's work is counted from here). */
    cpuAtStart?: number;
    /** The task said it will work long: a lane task hands the lane off as soon as there is room. */
    heavy?: boolean;
    /** The process's own setup during the task (`processSetup`), on the work clock: not the task's work. */
    setup?: { depth: number; since: number; totalMs: number };
    startedAt: number;
  };
}

/** Options of {@link ProcessPool.close}. */
export interface ProcessPoolCloseOptions {
  /**
   * Wait until every process has exited (default true). `false` suits a caller about to exit
   * itself: the processes are killed all the same, and it does not wait while the system frees
   * their memory (tens of milliseconds for one that partitioned a long document), nor do they keep
   * it alive.
   */
  waitForExit?: boolean;
}

/** The command of a worker process: a prestarted process serves a pool whose processes run the same. */
function processKey(workerUrl: URL, heapLimitMb: number | undefined, execArgv: readonly string[]): string {
  return JSON.stringify([workerUrl.href, heapLimitMb ?? null, execArgv]);
}

/** Processes started by {@link ProcessPool.prestart} that no pool has taken yet, by command. */
const prestarted: Array<{ key: string; slot: Slot<unknown, unknown> }> = [];

/** Forks a worker process running the pool entry with `workerUrl`; its events go to its owner. */
function forkSlot<T, R>(workerUrl: URL, heapLimitMb: number | undefined, execArgv: readonly string[]): Slot<T, R> {
  const entry = entryPath();
  const needsTsx = entry.endsWith('.ts') || workerUrl.pathname.endsWith('.ts');
  const child = fork(entry, [workerUrl.href], {
    execArgv: [...(needsTsx ? tsExecArgv() : []), ...(heapLimitMb === undefined ? [] : [`--max-old-space-size=${heapLimitMb}`]), ...execArgv],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const slot: Slot<T, R> = { child, stderr: '', ready: false, lane: 'general', tasks: 0 };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (text: string) => {
    slot.stderr = (slot.stderr + text).slice(-STDERR_TAIL_CHARS);
  });
  child.on('message', (message: WorkerReplyMessage<R> | ReadyMessage | WarmedUpMessage | HeavyMessage | PartMessage<unknown> | SetupMessage) => {
    if ('warmedUp' in message) {
      slot.warmUps = (slot.warmUps ?? 1) - 1;
      if (slot.warmUps === 0) slot.warmedUp?.();
    } else if ('part' in message) slot.owner?.part(slot, message);
    else if ('heavy' in message) slot.owner?.heavy(slot, message);
    else if ('setup' in message) slot.owner?.setup(slot, message);
    else if ('ready' in message) {
      slot.ready = true;
      slot.heapLimitMb = message.heapLimitMb;
      slot.owner?.ready(slot);
    } else slot.owner?.reply(slot, message);
  });
  // A process that cannot start emits 'error' and then 'close'; the task fails there.
  child.on('error', (e) => {
    slot.stderr += `\n${errorMessage(e)}`;
  });
  child.on('exit', () => slot.warmedUp?.());
  child.on('close', (code, signal) => {
    if (slot.owner) slot.owner.exit(slot, code, signal);
    else {
      const at = prestarted.findIndex((p) => p.slot === slot);
      if (at >= 0) prestarted.splice(at, 1);
    }
  });
  release(slot);
  return slot;
}

/**
 * A busy process keeps the caller alive until its task answers. Its stderr pipe counts too:
 * 'close' (which settles a crashed task) waits for the pipe's end, and an unreferenced pipe let
 * the event loop empty first, so the caller exited with its await unsettled (code 13).
 */
function hold<T, R>(slot: Slot<T, R>): void {
  slot.child.ref();
  slot.child.channel?.ref();
  (slot.child.stderr as { ref?: () => void } | null)?.ref?.();
}

/** An idle process does not keep the caller alive. */
function release<T, R>(slot: Slot<T, R>): void {
  slot.child.unref();
  slot.child.channel?.unref();
  (slot.child.stderr as { unref?: () => void } | null)?.unref?.();
}

/**
 * A pool of child processes running one module's task function, for document work that may crash,
 * loop or exhaust memory: a native crash (an image decoder's SIGSEGV), an endless loop or heap
 * exhaustion ends one process, never the caller's. Each process runs one task at a time and is reused
 * across tasks, up to `maxTasksPerProcess`; one idle for `idleTimeoutMs` is ended, so memory a task
 * left behind is returned. Tasks queue first-come first-served; with a `smallLane`, small tasks
 * also start in processes kept for them while big ones hold the others. A task fails alone with a
 * coded error and its process is replaced:
 *
 * - `DOCUMENT_CRASHED`: the process died (a signal, an exit, an uncaught exception);
 * - `NODE_TIMEOUT`: the task ran past `taskTimeoutMs` (counted once the worker module has loaded);
 * - `DOCUMENT_TOO_LARGE`: the process exhausted its heap or went over `memoryLimitMb`;
 * - `JOB_ABORTED` (or the signal's `QuarryError` reason): the task's signal aborted; the caller hears
 *   at once, the running task's process is told to stop (its task function's signal aborts) and is
 *   killed if it has not within `abortGraceMs`, so a cancel takes effect mid-document.
 *
 * An error the task function throws comes back with its code. Processes start on demand and idle
 * ones do not keep the caller alive.
 *
 * @example
 * ```ts
 * const pool = new ProcessPool<{ word: string }, string>({ workerUrl: new URL('./upper-worker.js', import.meta.url), size: 2, taskTimeoutMs: 30_000 });
 * await pool.run({ word: 'hi' }); // 'HI'
 * await pool.close();
 * ```
 */
export class ProcessPool<T, R, P = never> {
  private readonly options: Required<Omit<ProcessPoolOptions, 'name' | 'heapLimitMb' | 'smallLane'>> & {
    name: string;
    heapLimitMb: number | undefined;
    laneProcesses: number;
    handoffMs: number;
    background: boolean;
    standby: boolean;
  };
  private readonly slots: Array<Slot<T, R>> = [];
  /** Processes ended for recycling that have not exited yet. */
  private readonly retiring = new Set<Slot<T, R>>();
  private readonly queue: LaneQueue<Pending<T, R>>;
  private nextId = 1;
  private closed = false;
  /** {@link ProcessPool.warm} was called: keep `size` processes started. */
  private warmed = false;
  /** The system refused to raise a promoted spare's priority: spares warm at normal priority from then on. */
  private raiseRefused = false;
  private readonly events: SlotOwner<T, R> = {
    ready: (slot) => this.onReady(slot),
    reply: (slot, message) => this.onReply(slot, message),
    exit: (slot, code, signal) => this.onExit(slot, code, signal),
    heavy: (slot, message) => this.onHeavy(slot, message),
    part: (slot, message) => this.onPart(slot, message),
    setup: (slot, message) => this.onSetup(slot, message),
  };

  /**
   * Starts one worker process now, before any pool exists, so that its start and its loading of
   * the worker module overlap with the caller's own loading (a command line tool that will need
   * the process a moment later). The first pool with the same `workerUrl`, `heapLimitMb` and
   * `execArgv` takes it instead of starting one; until then it does not keep the caller alive,
   * and it ends with the caller if no pool takes it. Returns the process id.
   */
  static prestart(options: Pick<ProcessPoolOptions, 'workerUrl' | 'heapLimitMb' | 'execArgv'>): number | undefined {
    const execArgv = options.execArgv ?? [];
    const slot = forkSlot<unknown, unknown>(options.workerUrl, options.heapLimitMb, execArgv);
    prestarted.push({ key: processKey(options.workerUrl, options.heapLimitMb, execArgv), slot });
    return slot.child.pid;
  }

  constructor(options: ProcessPoolOptions) {
    this.options = {
      workerUrl: options.workerUrl,
      size: Math.max(1, Math.floor(options.size ?? availableParallelism())),
      name: options.name ? `${options.name} ` : '',
      taskTimeoutMs: options.taskTimeoutMs ?? 0,
      heapLimitMb: options.heapLimitMb,
      memoryLimitMb: options.memoryLimitMb ?? DEFAULT_MEMORY_LIMIT_MB,
      execArgv: options.execArgv ?? [],
      abortGraceMs: options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS,
      maxTasksPerProcess: options.maxTasksPerProcess ?? DEFAULT_MAX_TASKS_PER_PROCESS,
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      laneProcesses: options.smallLane ? Math.max(0, Math.floor(options.smallLane.processes ?? 1)) : 0,
      handoffMs: options.smallLane?.handoffMs ?? DEFAULT_HANDOFF_MS,
      background: options.smallLane?.background ?? false,
      standby: options.smallLane?.standby ?? (options.smallLane?.processes ?? 1) <= 1,
    };
    this.queue = new LaneQueue(this.options.laneProcesses > 0 ? options.smallLane?.maxCost : undefined);
  }

  /** Number of live worker processes (they start on demand, up to `size`, plus the small lane's). */
  get size(): number {
    return this.slots.length;
  }

  /** The ids of the live worker processes. */
  get pids(): number[] {
    return this.slots.flatMap((s) => (s.child.pid === undefined ? [] : [s.child.pid]));
  }

  /**
   * Runs one task in the next free process that takes it; `signal` (or `options.signal`) withdraws
   * it, rejecting with its reason or `JOB_ABORTED`.
   */
  run(task: T, options: PoolRunOptions<P> | AbortSignal = {}): Promise<R> {
    const { signal, cost = 0, onPart } = options instanceof AbortSignal ? { signal: options, onPart: undefined } : options;
    if (this.closed) return Promise.reject(new QuarryError('INVALID_ARGUMENT', `the ${this.options.name}process pool is closed`));
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise<R>((resolve, reject) => {
      const pending: Pending<T, R> = { task, cost, signal, resolve, reject };
      // Parts are whatever the worker module sends, trusted as its results are.
      if (onPart) pending.onPart = onPart as (part: unknown) => void;
      if (signal) {
        pending.onAbort = () => this.abort(pending, abortError(signal));
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /**
   * Starts every process now instead of on demand, the small lane's included, and keeps them
   * started: one that ends (recycled, crashed, handed off) is replaced at once. Each lane process so
   * started also warms up (runs the worker module's `warmUp` export, if any) while it waits for work,
   * so that small tasks wait neither for a process to start nor for what it loads on first use; with
   * the lane's `standby`, one more lane process waits warm as a spare, and takes the place of one
   * that ends or hands off. A server calls this when it starts listening.
   */
  warm(): void {
    this.warmed = true;
    for (const lane of ['general', 'small'] as const) {
      const room = lane === 'general' ? this.options.size : this.options.laneProcesses;
      while (!this.closed && this.count(lane) < room) {
        const spare = lane === 'small' ? this.slots.find((s) => s.standby) : undefined;
        if (spare) {
          this.promote(spare);
          continue;
        }
        const slot = this.spawn(lane);
        // Only the lane warms up: small work waits on it when big work holds the rest, and the
        // general processes' first documents are mostly big ones, whose own cost dwarfs a first use.
        if (lane === 'small') this.warmUp(slot, !this.needsFullWarmUp(slot));
      }
    }
    if (!this.closed && this.options.standby && this.options.laneProcesses > 0 && !this.slots.some((s) => s.standby))
      this.warmUp(this.spawn('small', true), true);
  }

  /** No other lane process keeps what is costly to keep (an OCR engine): this one should. */
  private needsFullWarmUp(slot: Slot<T, R>): boolean {
    return !this.slots.some((s) => s !== slot && s.lane === 'small' && s.warmedFully && !s.handedOff && !s.standby);
  }

  /**
   * The spare lane process joins the lane, at the caller's priority where the system lets it be
   * raised, and readies what a spare leaves for later.
   */
  private promote(slot: Slot<T, R>): void {
    slot.standby = false;
    if (this.options.background && !this.raiseRefused && !toForeground(slot.child.pid)) this.raiseRefused = true;
    if (this.needsFullWarmUp(slot)) this.warmUp(slot, false);
  }

  /**
   * Settles once every live lane process has ended the warm-up that {@link ProcessPool.warm} asked
   * of it (a process that ended meanwhile counts as done).
   */
  async warmedUp(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.warming));
  }

  /** Has a process load what its tasks will need before it gets one (`light`: what is cheap to keep idle). */
  private warmUp(slot: Slot<T, R>, light: boolean): void {
    if (!slot.warmUps) slot.warming = new Promise<void>((done) => (slot.warmedUp = done));
    slot.warmUps = (slot.warmUps ?? 0) + 1;
    if (!light) slot.warmedFully = true;
    if (slot.child.exitCode !== null || slot.child.signalCode !== null) slot.warmedUp?.();
    try {
      slot.child.send({ warmUp: true, ...(light ? { light } : {}) } satisfies WarmUpMessage);
    } catch {
      // The channel is gone: the process is ending, and its exit is handled there.
    }
  }

  /**
   * Kills every process; running and queued tasks reject with `JOB_ABORTED`. Resolves once they
   * have exited, or, with `waitForExit: false`, once each is killed.
   */
  async close(options: ProcessPoolCloseOptions = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new QuarryError('JOB_ABORTED', `the ${this.options.name}process pool was closed`);
    for (const pending of this.queue.drain()) this.settle(pending, error);
    const waited = (options.waitForExit ?? true) ? [...this.slots, ...this.retiring] : [];
    const exits = waited.map((slot) => {
      // Kept referenced until it is gone: the caller awaits this. 'exit', not 'close': a grandchild
      // may hold the process's stderr open long after the process is gone.
      hold(slot);
      return new Promise<void>((done) => (slot.child.exitCode !== null || slot.child.signalCode !== null ? done() : slot.child.once('exit', () => done())));
    });
    for (const slot of [...this.slots]) this.kill(slot, error);
    await Promise.all(exits);
  }

  private dispatch(): void {
    while (!this.closed && this.queue.length > 0) {
      const slot = this.freeSlot('general') ?? this.freeSlot('small');
      const pending = slot && this.queue.take(slot.lane);
      if (!slot || !pending) return;
      this.start(slot, pending);
    }
  }

  /** An idle process of `lane` (started if the lane has room) when a queued task may run there. */
  private freeSlot(lane: Lane): Slot<T, R> | undefined {
    if (!this.queue.hasWork(lane)) return undefined;
    const idle = this.slots.find((s) => s.lane === lane && !s.running && !s.handedOff && !s.standby);
    if (idle) return idle;
    const room = lane === 'general' ? this.options.size : this.options.laneProcesses;
    return this.count(lane) < room ? this.spawn(lane) : undefined;
  }

  private count(lane: Lane): number {
    return this.slots.filter((s) => s.lane === lane && !s.handedOff && !s.standby).length;
  }

  private spawn(lane: Lane, standby = false): Slot<T, R> {
    const { workerUrl, heapLimitMb, execArgv } = this.options;
    const key = processKey(workerUrl, heapLimitMb, execArgv);
    const at = prestarted.findIndex((p) => p.key === key && p.slot.child.exitCode === null && p.slot.child.signalCode === null);
    // A prestarted process has no owner and no task yet: it is one of this pool's from here on.
    const slot = at >= 0 ? (prestarted.splice(at, 1)[0]!.slot as Slot<T, R>) : forkSlot<T, R>(workerUrl, heapLimitMb, execArgv);
    slot.owner = this.events;
    slot.lane = lane;
    if (standby) slot.standby = true;
    this.slots.push(slot);
    // A spare warms up behind the lane, not against it, unless its priority could not be raised when promoted.
    const background = lane === 'general' ? this.options.laneProcesses > 0 : standby && !this.raiseRefused;
    if (background && this.options.background) toBackground(slot.child.pid);
    return slot;
  }

  private start(slot: Slot<T, R>, pending: Pending<T, R>): void {
    const id = this.nextId++;
    const running: NonNullable<Slot<T, R>['running']> = { id, pending, startedAt: performance.now() };
    clearTimeout(slot.idle);
    slot.running = running;
    const { memoryLimitMb, name } = this.options;
    try {
      slot.child.send({ id, task: pending.task, ...(pending.onPart ? { parts: true as const } : {}) } satisfies TaskMessage<T>);
    } catch (e) {
      // Thrown by the serializer before the process saw anything: the process stays usable.
      slot.running = undefined;
      this.settle(pending, new QuarryError('INVALID_ARGUMENT', `the task cannot be sent to a ${name}process: ${errorMessage(e)}`));
      return;
    }
    hold(slot);
    if (slot.ready) this.armTimer(slot);
    // A lane task is watched for its hand-off: after a heavy notice that found no room, or by its work.
    const handoff = slot.lane === 'small';
    if ((memoryLimitMb > 0 || handoff) && slot.child.pid !== undefined) {
      const pid = slot.child.pid;
      running.cpuAtStart = handoff && this.options.handoffMs > 0 ? cpuSeconds(pid) : undefined;
      running.watch = setInterval(() => {
        const mb = memoryLimitMb > 0 ? residentMb(pid) : undefined;
        if (mb !== undefined && mb > memoryLimitMb) {
          this.kill(
            slot,
            new QuarryError('DOCUMENT_TOO_LARGE', `the ${name}process went over its memory limit of ${memoryLimitMb} MB`, {
              details: { memory_limit_mb: memoryLimitMb },
            }),
          );
        } else if (handoff && !slot.handedOff && (running.heavy || this.outranHandoff(pid, running))) this.handOff(slot);
      }, MEMORY_CHECK_MS);
    }
  }

  /** Whether a lane task has worked its hand-off time. */
  private outranHandoff(pid: number, running: NonNullable<Slot<T, R>['running']>): boolean {
    return this.options.handoffMs > 0 && this.workedMs(pid, running) >= this.options.handoffMs;
  }

  /** How long a task has worked, less its process's setup meanwhile. */
  private workedMs(pid: number, running: NonNullable<Slot<T, R>['running']>): number {
    const { start, now } = this.workClock(pid, running);
    const setup = running.setup;
    return now - start - (setup ? setup.totalMs + (setup.depth > 0 ? now - setup.since : 0) : 0);
  }

  /** A task's work clock in ms: its process's CPU time since the start where known, else wall time. */
  private workClock(pid: number, running: NonNullable<Slot<T, R>['running']>): { start: number; now: number } {
    const start = running.cpuAtStart;
    const now = start === undefined ? undefined : cpuSeconds(pid);
    return start === undefined || now === undefined ? { start: running.startedAt, now: performance.now() } : { start: start * 1000, now: now * 1000 };
  }

  /** The running task's process set itself up (an engine starting): that span is not the task's work. */
  private onSetup(slot: Slot<T, R>, message: SetupMessage): void {
    const running = slot.running;
    const pid = slot.child.pid;
    if (!running || pid === undefined) return;
    const { now } = this.workClock(pid, running);
    const setup = (running.setup ??= { depth: 0, since: now, totalMs: 0 });
    if (message.setup) {
      if (setup.depth++ === 0) setup.since = now;
    } else if (setup.depth > 0 && --setup.depth === 0) setup.totalMs += now - setup.since;
  }

  /**
   * A lane task said it will work long, or outran the hand-off time: its process leaves the lane
   * (room permitting) for the spare or a fresh one.
   */
  private handOff(slot: Slot<T, R>): void {
    const handedOff = this.slots.filter((s) => s.handedOff).length;
    if (!slot.running || handedOff >= Math.max(this.options.size, this.options.laneProcesses)) return;
    slot.handedOff = true;
    if (this.options.background) toBackground(slot.child.pid);
    // A warmed pool promotes its spare (or starts the lane's next process) now, and a new spare behind it.
    if (this.warmed) this.warm();
    this.dispatch();
  }

  /** The running task said it will work long: a lane task hands off at once (or as soon as there is room, from its watch). */
  private onHeavy(slot: Slot<T, R>, message: HeavyMessage): void {
    const running = slot.running;
    if (!running || running.id !== message.heavy) return;
    running.heavy = true;
    if (slot.lane === 'small' && !slot.handedOff) this.handOff(slot);
  }

  /**
   * A part of the running task's result: handed to its caller, and taken (the worker may send the
   * next) only after this event loop's turn, so that timers and other sockets run between parts.
   * A withdrawn task's parts go nowhere and are not taken: its process is stopping.
   */
  private onPart(slot: Slot<T, R>, message: PartMessage<unknown>): void {
    const running = slot.running;
    if (!running || running.id !== message.id || running.pending.settled) return;
    try {
      running.pending.onPart?.(message.part);
    } catch (e) {
      this.withdraw(slot, new QuarryError('NODE_FAILED', `a part of the ${this.options.name}process's result was refused: ${errorMessage(e)}`));
      return;
    }
    setImmediate(() => {
      if (slot.running !== running || running.pending.settled) return;
      try {
        slot.child.send({ partTaken: message.id } satisfies PartTakenMessage);
      } catch {
        // The channel is gone: the process is ending, and its exit fails the task.
      }
    });
  }

  private onReady(slot: Slot<T, R>): void {
    this.armTimer(slot);
  }

  private armTimer(slot: Slot<T, R>): void {
    const { taskTimeoutMs, name } = this.options;
    const running = slot.running;
    if (!running || running.grace || taskTimeoutMs <= 0) return;
    running.timer = setTimeout(
      () =>
        this.kill(
          slot,
          new QuarryError('NODE_TIMEOUT', `the ${name}process did not finish the task within ${taskTimeoutMs} ms`, { details: { timeout_ms: taskTimeoutMs } }),
        ),
      taskTimeoutMs,
    );
  }

  private onReply(slot: Slot<T, R>, message: WorkerReplyMessage<R>): void {
    const running = slot.running;
    if (!running || running.id !== message.id) return;
    this.finish(slot);
    const { reply } = message;
    const { pending } = running;
    // A withdrawn task was settled when it was withdrawn; its late answer only frees the process.
    if (!pending.settled) {
      if (reply.ok) {
        pending.settled = true;
        this.cleanup(pending);
        pending.resolve(reply.result);
      } else this.settle(pending, QuarryError.from(reply.error.code, reply.error.message, { details: reply.error.details ?? {} }));
    }
    slot.tasks++;
    this.recycleOrKeep(slot);
    this.dispatch();
  }

  /** After a task: a process that has run its share is replaced; another is ended once idle long enough. */
  private recycleOrKeep(slot: Slot<T, R>): void {
    const { maxTasksPerProcess, idleTimeoutMs } = this.options;
    if (slot.handedOff || (maxTasksPerProcess > 0 && slot.tasks >= maxTasksPerProcess)) this.retire(slot);
    else if (idleTimeoutMs > 0) slot.idle = setTimeout(() => this.retire(slot), idleTimeoutMs).unref();
  }

  /** Ends an idle process (it has no task); a warmed pool starts a fresh one in its place. */
  private retire(slot: Slot<T, R>): void {
    const at = this.slots.indexOf(slot);
    if (at < 0 || slot.running || this.closed) return;
    clearTimeout(slot.idle);
    this.slots.splice(at, 1);
    this.retiring.add(slot);
    slot.child.kill('SIGTERM');
    if (this.warmed) this.warm();
  }

  private onExit(slot: Slot<T, R>, code: number | null, signal: NodeJS.Signals | null): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    this.retiring.delete(slot);
    clearTimeout(slot.idle);
    const running = slot.running;
    if (running) {
      this.finish(slot);
      this.settle(running.pending, this.exitError(slot, code, signal));
    }
    // One that died before it was ready would die again: it is replaced on demand only.
    if (!this.closed && this.warmed && slot.ready) this.warm();
    if (!this.closed) this.dispatch();
  }

  /** Why a process died under its task, from its exit and the last lines it wrote. */
  private exitError(slot: Slot<T, R>, code: number | null, signal: NodeJS.Signals | null): QuarryError {
    const { name } = this.options;
    const heapLimitMb = this.options.heapLimitMb ?? slot.heapLimitMb;
    const stderr = slot.stderr.trim();
    if (HEAP_EXHAUSTED.test(stderr)) {
      const limit = heapLimitMb === undefined ? '' : ` (heap limit ${heapLimitMb} MB)`;
      return new QuarryError('DOCUMENT_TOO_LARGE', `the ${name}process ran out of memory${limit}`, {
        details: heapLimitMb === undefined ? {} : { heap_limit_mb: heapLimitMb },
      });
    }
    const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`;
    const last = stderr
      .split('\n')
      .filter((l) => l.trim())
      .at(-1);
    return new QuarryError('DOCUMENT_CRASHED', `the ${name}process ${how}${last ? `: ${last.trim()}` : ''}`, {
      details: { ...(signal ? { signal } : { exit_code: code }) },
    });
  }

  /** Kills a process on purpose; its task (if any) fails with `error` right away. */
  private kill(slot: Slot<T, R>, error: QuarryError): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    clearTimeout(slot.idle);
    const running = slot.running;
    if (running) {
      this.finish(slot);
      this.settle(running.pending, error);
    }
    slot.child.kill('SIGKILL');
    if (!this.closed && this.warmed) this.warm();
    if (!this.closed) this.dispatch();
  }

  private abort(pending: Pending<T, R>, error: QuarryError): void {
    if (this.queue.remove(pending)) {
      this.settle(pending, error);
      return;
    }
    const slot = this.slots.find((s) => s.running?.pending === pending);
    if (slot) this.withdraw(slot, error);
  }

  /**
   * The caller gave up on a running task: it hears `error` now; the process is told to stop and
   * keeps serving if it answers within the grace period, else it is killed.
   */
  private withdraw(slot: Slot<T, R>, error: QuarryError): void {
    const running = slot.running;
    if (!running || running.grace) return;
    this.settle(running.pending, error);
    const { abortGraceMs } = this.options;
    if (abortGraceMs <= 0) {
      this.kill(slot, error);
      return;
    }
    clearTimeout(running.timer);
    running.grace = setTimeout(() => this.kill(slot, error), abortGraceMs);
    try {
      slot.child.send({ abort: running.id } satisfies AbortMessage);
    } catch {
      // The channel is gone: the process is ending anyway, and its exit frees the slot.
    }
  }

  private finish(slot: Slot<T, R>): void {
    const running = slot.running;
    if (!running) return;
    clearTimeout(running.timer);
    clearTimeout(running.grace);
    clearInterval(running.watch);
    slot.running = undefined;
    release(slot);
  }

  private settle(pending: Pending<T, R>, error: QuarryError): void {
    if (pending.settled) return;
    pending.settled = true;
    this.cleanup(pending);
    pending.reject(error);
  }

  private cleanup(pending: Pending<T, R>): void {
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
  }
}
