import type { PartitionPoolOptions } from '@quarry/nodes';

/** The flags every partitioning command takes: how many processes, and each document's time limit. */
export interface PartitionProcessFlags {
  /** Partition in this many processes (default: one per core). */
  numProcesses?: number;
  /** A document taking longer fails with `NODE_TIMEOUT` (seconds; default 600). */
  documentTimeout?: number;
}

/** Help text of `--num-processes`. */
export const NUM_PROCESSES_HELP = 'partition in <n> child processes, one document each at a time (default: one per core)';
/** Help text of `--document-timeout`. */
export const DOCUMENT_TIMEOUT_HELP = 'a document partitioning longer fails alone with NODE_TIMEOUT (seconds, default 600)';

/** The partition pool options of those flags. */
export function partitionPoolOptions(flags: PartitionProcessFlags): PartitionPoolOptions {
  return {
    ...(flags.numProcesses === undefined ? {} : { size: flags.numProcesses }),
    ...(flags.documentTimeout === undefined ? {} : { documentTimeoutMs: flags.documentTimeout * 1000 }),
  };
}
