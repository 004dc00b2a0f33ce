import { existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import type { Element, Logger, ServiceKey } from '@quarry/core';
import { errorMessage, isQuarryError, quarryError, QuarryError } from '@quarry/core/errors';
import { ProcessPool, type ProcessPoolCloseOptions } from '@quarry/core/process-pool';
import { serviceKey } from '@quarry/core/services';
import type { PartitionFileRequest } from '../partition/partition-file.js';
import type { PartitionTask, PartitionTaskResult } from './partition-task.js';
import type { PooledChunking, PooledChunks } from './pooled-chunking.js';

/**
 * The `services` key under which a job finds its {@link PartitionPool}: when a run's services hold
 * one, the `unstructured_api` partition node partitions in the pool's processes instead of in the
 * caller's. The caller owns the pool (creates it before the run, closes it after).
 */
export const PARTITION_POOL_SERVICE: ServiceKey<PartitionPool> = serviceKey<PartitionPool>('quarry.partition.pool');

/** The time limit of one document by default: the runtime's default node timeout. */
const DEFAULT_DOCUMENT_TIMEOUT_MS = 10 * 60_000;
/** Documents up to this size may run in the small lane by default. */
const DEFAULT_SMALL_DOCUMENT_BYTES = 2 * 1024 * 1024;
// Pool failures that say nothing of the file on their own; the message gets its name.
const POOL_CODES = new Set(['DOCUMENT_CRASHED', 'DOCUMENT_TOO_LARGE', 'NODE_TIMEOUT']);
// No V8 flags: any flag on the command line changes V8's cached-data tag, and Node then compiles the
// built-ins a process loads without their code cache (about 30 ms more CPU per process start). The
// 32 MB semi-spaces once set here no longer paid for that: without them `quarry partition --strategy
// fast` of a 619-page PDF took 3.52 s instead of 3.73 s (6.5 instead of 6.9 CPU s; medians of 10
// interleaved rounds, quiet).

// Numbers the temporary files of partitionToFile, unique within this process.
let temporaryFiles = 0;

/** Options of {@link PartitionPool}. */
export interface PartitionPoolOptions {
  /** Worker processes (the `num_processes` of a run; default: available parallelism). */
  size?: number;
  /** A document taking longer fails with `NODE_TIMEOUT` and its process is killed (default 10 minutes; 0: no limit). */
  documentTimeoutMs?: number;
  /**
   * V8 heap limit of each process in MB; a document that exhausts it fails with `DOCUMENT_TOO_LARGE`.
   * Default: Node's own (a quarter of the machine's memory, at most about 4 GB on 64-bit); setting
   * one costs each process tens of milliseconds at start (see the `ProcessPool` option).
   */
  heapLimitMb?: number;
  /** Resident memory limit of each process in MB, decoded images included (default 4096); over it, `DOCUMENT_TOO_LARGE`. */
  memoryLimitMb?: number;
  /** Another worker module, whose default export partitions one {@link PartitionTask} (tests); default the built-in one. */
  workerUrl?: URL;
  /**
   * Documents of at most this many bytes are small: besides the `size` processes, `smallLaneProcesses`
   * more partition only those, so that a web page or an e-mail does not wait behind a 600-page PDF
   * holding every other process (default 2 MiB).
   */
  smallDocumentBytes?: number;
  /**
   * Processes kept for small documents, started on demand beyond `size` (default 1; 0: one
   * first-come first-served queue). A lane document that turns out to need OCR (an image, a scanned
   * page), or has worked 2 s of CPU, hands the lane to another process at once, and its own process
   * ends after it. A warmed pool ({@link PartitionPool.warm}) keeps one more lane process warm as a
   * spare for this.
   */
  smallLaneProcesses?: number;
  /**
   * The `size` processes (big documents) and handed-off lane ones run at background CPU priority,
   * 10 nicer than this process on Linux, so that on contended cores this process (a server's event
   * loop) and the small lane come first (default false; `quarry serve` turns it on).
   */
  backgroundPriority?: boolean;
  /** A process is replaced after this many documents, returning the memory its parsers kept (default 100; 0: never). */
  maxDocumentsPerProcess?: number;
  /** A process idle this long after partitioning is ended, and replaced by a fresh one in a warmed pool (default 30 000 ms; 0: never). */
  idleTimeoutMs?: number;
  /** A withdrawn document's process that has not stopped after this many ms is killed (default 1000). */
  abortGraceMs?: number;
}

/** Per-document options of {@link PartitionPool.partition}. */
export interface PooledPartitionOptions {
  /**
   * Withdraws the document: it leaves the queue, or its process stops it between pages (and is
   * killed and replaced if it has not stopped within `abortGraceMs`); the call rejects at once.
   */
  signal?: AbortSignal;
  /** Receives the warnings the partitioners logged in the worker. */
  logger?: Logger;
}

/**
 * The built-in worker module next to this file: `.ts` when run from sources; when built, the
 * bundle of the worker and the text partitioner that the build makes (one file loads several
 * times faster than its sixty modules), or the worker module itself where there is none.
 */
export function partitionWorkerUrl(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./partition-worker.ts', import.meta.url);
  const bundle = new URL('./partition-worker.bundle.js', import.meta.url);
  return existsSync(bundle) ? bundle : new URL('./partition-worker.js', import.meta.url);
}

/**
 * Partitions documents with `partitionFile` in a pool of child processes (the `ProcessPool` of
 * `@quarry/core`), so that a hostile file costs only itself: a native crash in a decoder, an endless
 * loop or heap exhaustion fails that document with `DOCUMENT_CRASHED`, `NODE_TIMEOUT` or
 * `DOCUMENT_TOO_LARGE` and the next one gets a fresh process. It also keeps parsing off the caller's
 * event loop (a server keeps answering) and spreads documents over the cores. `quarry run`,
 * `quarry partition`, `quarry serve`, `quarry worker` and `quarry ingest` partition here; other
 * failures keep `partitionFile`'s codes.
 *
 * @example
 * ```ts
 * const pool = new PartitionPool({ size: 2, documentTimeoutMs: 60_000 });
 * const job = engine.run(plan, { source, destination, services: new Services().set(PARTITION_POOL_SERVICE, pool) });
 * await job.done;
 * await pool.close();
 * ```
 */
export class PartitionPool {
  private readonly pool: ProcessPool<PartitionTask, PartitionTaskResult, Element[]>;

  /**
   * Starts one partition process now, ahead of the pool (`quarry partition` calls this first
   * thing, so that the process starts and loads the partitioner while the command line is still
   * being read); the first pool with the same `workerUrl` and `heapLimitMb` takes it. Returns the
   * process id.
   */
  static prestart(options: Pick<PartitionPoolOptions, 'workerUrl' | 'heapLimitMb'> = {}): number | undefined {
    return ProcessPool.prestart({
      workerUrl: options.workerUrl ?? partitionWorkerUrl(),
      ...(options.heapLimitMb === undefined ? {} : { heapLimitMb: options.heapLimitMb }),
    });
  }

  constructor(options: PartitionPoolOptions = {}) {
    this.pool = new ProcessPool({
      workerUrl: options.workerUrl ?? partitionWorkerUrl(),
      name: 'partition',
      taskTimeoutMs: options.documentTimeoutMs ?? DEFAULT_DOCUMENT_TIMEOUT_MS,
      ...(options.size === undefined ? {} : { size: options.size }),
      ...(options.heapLimitMb === undefined ? {} : { heapLimitMb: options.heapLimitMb }),
      ...(options.memoryLimitMb === undefined ? {} : { memoryLimitMb: options.memoryLimitMb }),
      ...(options.maxDocumentsPerProcess === undefined ? {} : { maxTasksPerProcess: options.maxDocumentsPerProcess }),
      ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
      ...(options.abortGraceMs === undefined ? {} : { abortGraceMs: options.abortGraceMs }),
      smallLane: {
        maxCost: options.smallDocumentBytes ?? DEFAULT_SMALL_DOCUMENT_BYTES,
        processes: options.smallLaneProcesses ?? 1,
        background: options.backgroundPriority ?? false,
      },
    });
  }

  /** Number of live worker processes (started on demand, up to `size`, plus the small lane's). */
  get size(): number {
    return this.pool.size;
  }

  /** The ids of the live worker processes. */
  get pids(): number[] {
    return this.pool.pids;
  }

  /**
   * Partitions one document in the next free process; same result and errors as `partitionFile`,
   * plus the pool's. Given `{ path }`, the process reads the file itself (a server's staged upload
   * then never sits whole in the caller's memory).
   */
  async partition(
    input: Uint8Array | { path: string },
    request: Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>,
    options: PooledPartitionOptions = {},
  ): Promise<Element[]> {
    return (await this.gathered(input, request, {}, options)).elements;
  }

  /**
   * Partitions one document as {@link PartitionPool.partition} does, then chunks its elements in
   * the same process with `chunking` (a chunker node's subtype and resolved options): only the
   * chunks come back, so neither the chunking nor the elements cost this process anything (a
   * server's event loop). Resolves with the chunks, or with the chunker's coded failure; a
   * partitioning failure rejects as {@link PartitionPool.partition}'s does.
   */
  async partitionAndChunk(
    input: Uint8Array | { path: string },
    request: Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>,
    chunking: PooledChunking,
    options: PooledPartitionOptions = {},
  ): Promise<PooledChunks> {
    const result = await this.gathered(input, request, { chunk: chunking }, options);
    return result.chunkFailure ? { failure: result.chunkFailure } : { chunks: result.elements };
  }

  /** {@link PartitionPool.run} with a long result's slices (one per event-loop turn, the last in the result) joined in its `elements`. */
  private async gathered(
    input: Uint8Array | { path: string },
    request: Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>,
    work: Pick<PartitionTask, 'chunk'>,
    options: PooledPartitionOptions,
  ): Promise<PartitionTaskResult> {
    const slices: Element[][] = [];
    const result = await this.run(input, request, work, options, (slice) => slices.push(slice));
    return slices.length === 0 ? result : { ...result, elements: [...slices, result.elements].flat() };
  }

  /**
   * Partitions one document as {@link PartitionPool.partition} does, but its process writes the
   * element JSON array into `file` (sparse metadata, two-space indentation, as
   * `JSON.stringify(elements.map(elementToJSON), null, 2)` with a final newline: what
   * `quarry partition` writes), so the elements never travel back to this process. Resolves with
   * how many elements were written. The file appears complete or not at all: the process writes
   * a temporary file beside it, renamed to `file` once the process has answered, and removed when
   * the document fails (a process that dies mid-write leaves nothing under `file`). A file that
   * cannot be written fails with `DESTINATION_WRITE_FAILED`; other failures are those of
   * {@link PartitionPool.partition}.
   */
  async partitionToFile(
    input: Uint8Array | { path: string },
    request: Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>,
    file: string,
    options: PooledPartitionOptions = {},
  ): Promise<{ elements: number }> {
    const temporary = `${file}.${process.pid}.${++temporaryFiles}.tmp`;
    try {
      const result = await this.run(input, request, { output: { file: temporary, target: file } }, options);
      await rename(temporary, file).catch((e: unknown) => {
        throw quarryError('DESTINATION_WRITE_FAILED', `cannot write ${file}: ${errorMessage(e)}`, { cause: e, details: { path: file } });
      });
      return { elements: result.written ?? 0 };
    } catch (e) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw e;
    }
  }

  private async run(
    input: Uint8Array | { path: string },
    request: Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>,
    work: Pick<PartitionTask, 'output' | 'chunk'>,
    options: PooledPartitionOptions,
    onPart?: (elements: Element[]) => void,
  ): Promise<PartitionTaskResult> {
    let result: PartitionTaskResult;
    try {
      // The size in bytes is the cost that decides whether a document may take the small lane.
      const cost = input instanceof Uint8Array ? input.byteLength : await fileSize(input.path, request.filename);
      const task: PartitionTask = { ...(input instanceof Uint8Array ? { bytes: input } : { path: input.path }), request, ...work };
      result = await this.pool.run(task, { ...(options.signal ? { signal: options.signal } : {}), ...(onPart ? { onPart } : {}), cost });
    } catch (e) {
      if (isQuarryError(e) && POOL_CODES.has(e.code))
        throw QuarryError.from(e.code, `${request.filename}: ${e.message}`, { details: { ...e.details, filename: request.filename } });
      throw e;
    }
    if (options.logger) for (const entry of result.log) options.logger[entry.level](entry.message, entry.fields);
    return result;
  }

  /**
   * Starts every process now, the small lane's included, and keeps them started (one that ends is
   * replaced at once), so that the first documents do not wait for one to start. Each lane process
   * so started partitions a tiny document of each common format (text, Markdown, HTML, XML, CSV,
   * JSON, e-mail, PDF, Word, Excel, PowerPoint) while it waits for work: in a fresh process the first
   * e-mail or spreadsheet often costs ten times or more what the next one does (about
   * 2 CPU seconds for all of them, some 70 MB more resident). One more lane process waits so warmed
   * as a spare (at background priority with `backgroundPriority`): a small document that needs OCR
   * hands the lane to it at once, and a new spare starts behind it. A server calls this.
   */
  warm(): void {
    this.pool.warm();
  }

  /** Settles once every live lane process has ended the warm-up {@link PartitionPool.warm} gave it. */
  warmedUp(): Promise<void> {
    return this.pool.warmedUp();
  }

  /**
   * Stops the processes; documents still queued or running reject with `JOB_ABORTED`. Resolves once
   * they have exited, or, with `waitForExit: false` (a caller about to exit: `quarry partition`),
   * once each is killed.
   */
  close(options: ProcessPoolCloseOptions = {}): Promise<void> {
    return this.pool.close(options);
  }
}

/** The size of a document's file, which its process will read; a file that is not there fails as that read would. */
async function fileSize(path: string, filename: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (e) {
    throw quarryError('DOCUMENT_READ_FAILED', `cannot read ${filename}: ${errorMessage(e)}`, { cause: e, details: { filename } });
  }
}
