import { WorkerPool, type Element, type Logger } from '@quarry/core';
import type { PartitionFileRequest } from '../partition/partition-file.js';
import type { PartitionTask, PartitionTaskResult } from './partition-task.js';

/**
 * The `services` key under which a job finds its {@link PartitionPool}: when a run's services hold
 * one, the `unstructured_api` partition node partitions in the pool's worker threads instead of on
 * the main thread. The caller owns the pool (creates it before the run, closes it after).
 */
export const PARTITION_POOL_SERVICE = 'quarry.partition.pool';

const DEFAULT_YOUNG_GENERATION_MB = 96;

/** Options of {@link PartitionPool}. */
export interface PartitionPoolOptions {
  /** Worker threads (the `num_processes` of a run; default: available parallelism). */
  size?: number;
  /**
   * Young-generation size of each worker's heap in MB (default 96). Parsers allocate many
   * short-lived objects; a larger nursery means fewer scavenges, which in worker threads also
   * contend for the process's shared GC helpers: it is what lets two workers reach ~2x one.
   */
  youngGenerationMb?: number;
  /** Another worker module, whose default export partitions one {@link PartitionTask} (tests); default the built-in one. */
  workerUrl?: URL;
}

/** Per-document options of {@link PartitionPool.partition}. */
export interface PooledPartitionOptions {
  /** Withdraws the document: it leaves the queue, or its worker is terminated and replaced. */
  signal?: AbortSignal;
  /** Receives the warnings the partitioners logged in the worker. */
  logger?: Logger;
}

/** The built-in worker module next to this file: `.js` when built, `.ts` when run from sources. */
export function partitionWorkerUrl(): URL {
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./partition-worker.${ext}`, import.meta.url);
}

/**
 * Partitions documents with `partitionFile` in a pool of worker threads (the piscina-based
 * `WorkerPool` of `@quarry/core`), for CPU-bound runs on several cores: `quarry run`, `quarry worker`
 * and `quarry ingest` with `--num-processes`. Bytes move to the worker (transferred, not copied);
 * elements come back as plain element data. A document whose worker crashes fails alone
 * (`NODE_FAILED`) and the worker is replaced; other failures keep `partitionFile`'s codes.
 *
 * @example
 * ```ts
 * const pool = new PartitionPool({ size: 2 });
 * const job = engine.run(plan, { source, destination, services: new Map([[PARTITION_POOL_SERVICE, pool]]) });
 * await job.done;
 * await pool.close();
 * ```
 */
export class PartitionPool {
  private readonly pool: WorkerPool<PartitionTask, PartitionTaskResult>;

  constructor(options: PartitionPoolOptions = {}) {
    this.pool = new WorkerPool({
      workerUrl: options.workerUrl ?? partitionWorkerUrl(),
      name: 'partition',
      resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb ?? DEFAULT_YOUNG_GENERATION_MB },
      ...(options.size === undefined ? {} : { size: options.size }),
    });
  }

  /** Number of worker threads. */
  get size(): number {
    return this.pool.size;
  }

  /** Partitions one document in the next free worker; same result and errors as `partitionFile`. */
  async partition(bytes: Uint8Array, request: Omit<PartitionFileRequest, 'signal' | 'logger'>, options: PooledPartitionOptions = {}): Promise<Element[]> {
    // The copy moves to the worker (one memcpy, no clone): the caller's bytes stay readable, as a
    // source may hand out the same buffer again or a view into a larger, pooled one.
    const moved = new Uint8Array(bytes);
    const { elements, log } = await this.pool.run({ bytes: moved, request }, [moved.buffer as ArrayBuffer], options.signal);
    if (options.logger) for (const entry of log) options.logger[entry.level](entry.message, entry.fields);
    return elements;
  }

  /** Stops the workers; documents still queued or running reject with `JOB_ABORTED`. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Whether a value is a {@link PartitionPool} (a service found by key is `unknown`). */
export function isPartitionPool(value: unknown): value is PartitionPool {
  // Duck-typed: a second copy of this module (sources and build side by side) has another class.
  return typeof value === 'object' && value !== null && typeof (value as PartitionPool).partition === 'function' && typeof (value as PartitionPool).close === 'function';
}
