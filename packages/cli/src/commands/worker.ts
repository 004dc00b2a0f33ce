import { consoleLogger, Services } from '@quarry/core';
import { startWorker } from '@quarry/distributed';
import { PARTITION_POOL_SERVICE, PartitionPool } from '@quarry/nodes';
import { distributedSecret } from '../distributed-secret.js';
import { partitionPoolOptions, type PartitionProcessFlags } from '../partition-processes.js';
import { defaultEngine } from '../engine.js';
import { stopOnSignals } from '../stop-on-signals.js';

/** Options of `quarry worker`. */
export interface WorkerCommandOptions extends PartitionProcessFlags {
  /** Redis URL (`redis://host:port/db`). */
  redis: string;
  /** Queue to take tasks from (default `quarry`). */
  queue?: string;
  /** Tasks run at once (default 4). */
  concurrency?: number;
  /** Lock of a running task; a dead worker's task moves on after this long (default 30 s). */
  lockMs?: number;
  /** How often to look for tasks of dead workers (default 30 s). */
  stalledIntervalMs?: number;
  /** This worker's name (default host:pid). */
  name?: string;
}

/** A running `quarry worker`. */
export interface WorkerHandle {
  /** The worker's name. */
  name: string;
  /** Resolves once the worker has stopped (SIGINT, SIGTERM or {@link WorkerHandle.close}). */
  closed: Promise<void>;
  /** Stops taking tasks, finishes the running ones, closes connections. */
  close(): Promise<void>;
}

/**
 * `quarry worker --redis URL [--queue Q] [--concurrency N] [--num-processes N]`: takes document
 * tasks of distributed runs until SIGINT or SIGTERM, then lets the running tasks finish. The banner
 * goes to stderr once the worker is listening.
 */
export async function workerCommand(opts: WorkerCommandOptions): Promise<WorkerHandle> {
  const logger = consoleLogger();
  const pool = new PartitionPool(partitionPoolOptions(opts));
  const worker = await startWorker(defaultEngine(), {
    redis: opts.redis,
    ...(opts.queue ? { queue: opts.queue } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
    ...(opts.lockMs ? { lockDurationMs: opts.lockMs } : {}),
    ...(opts.stalledIntervalMs ? { stalledIntervalMs: opts.stalledIntervalMs } : {}),
    ...(opts.name ? { name: opts.name } : {}),
    ...distributedSecret(),
    services: new Services().set(PARTITION_POOL_SERVICE, pool),
    logger,
  }).catch(async (e: unknown) => {
    await pool.close();
    throw e;
  });
  const { closed, close } = stopOnSignals(async () => {
    await worker.close();
    await pool.close();
    const c = worker.counts;
    process.stderr.write(`quarry worker ${worker.name}: stopped (${c.written} written, ${c.failed} failed, ${c.stopped} stopped, ${c.retried} retried)\n`);
  });
  process.stderr.write(`quarry worker ${worker.name}: ready on queue "${opts.queue ?? 'quarry'}" (concurrency ${opts.concurrency ?? 4})\n`);
  return { name: worker.name, closed, close };
}
