import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import type { PartitionPoolOptions } from '@quarry/nodes';
import { positiveInt } from './option-parsers.js';

/** The flags every partitioning command takes: how many processes, and each document's time limit. */
export interface PartitionProcessFlags {
  /** Partition in this many processes (default: one per core). */
  numProcesses?: number;
  /** A document taking longer fails with `NODE_TIMEOUT` (seconds; default 600). */
  documentTimeout?: number;
}

/** Adds `--num-processes` and `--document-timeout` to a command that partitions. */
export function partitionProcessOptions(command: Command): Command {
  return command
    .option('--num-processes <n>', 'partition in <n> child processes, one document each at a time (default: one per core)', positiveInt)
    .option('--document-timeout <seconds>', 'a document partitioning longer fails alone with NODE_TIMEOUT (seconds, default 600)', positiveInt);
}

/** Documents to keep in hand: twice the processes, so the next one is read while a process is busy. */
export function documentsInFlight(flags: PartitionProcessFlags): number {
  return 2 * (flags.numProcesses ?? availableParallelism());
}

/** The partition pool options of those flags. */
export function partitionPoolOptions(flags: PartitionProcessFlags): PartitionPoolOptions {
  return {
    ...(flags.numProcesses === undefined ? {} : { size: flags.numProcesses }),
    ...(flags.documentTimeout === undefined ? {} : { documentTimeoutMs: flags.documentTimeout * 1000 }),
  };
}
