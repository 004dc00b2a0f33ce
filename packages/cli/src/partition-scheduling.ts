import { InvalidArgumentError, type Command } from 'commander';
import type { PartitionPoolOptions } from '@quarry/nodes';

/** The flags of `quarry serve` that decide how documents share the partition processes and when a process is recycled. */
export interface PartitionSchedulingFlags {
  /** Documents up to this many MB may also run in the small lane (default 2). */
  smallDocumentMb?: number;
  /** Processes kept for small documents beyond `--num-processes` (default 2; 0: none). */
  smallLaneProcesses?: number;
  /** Replace a process after this many documents (default 100; 0: never). */
  maxDocumentsPerProcess?: number;
  /** End a process idle this many seconds after work; a fresh one takes its place (default 30; 0: never). */
  idleRecycle?: number;
  /** `--no-background-priority` sets false: big documents at the server's own CPU priority. */
  backgroundPriority?: boolean;
  /** A legacy request not answered this many seconds after it arrived is answered NODE_TIMEOUT and its documents stop (default: none). */
  partitionDeadline?: number;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`expected a whole number, 0 or more, got "${value}"`);
  return n;
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${value}"`);
  return n;
}

/** Adds the small-lane, recycling and deadline flags to a command. */
export function partitionSchedulingOptions(command: Command): Command {
  return command
    .option(
      '--small-document-mb <mb>',
      'documents up to this size may also run in the small lane, so that they do not wait behind big ones (default 2)',
      positiveNumber,
    )
    .option(
      '--small-lane-processes <n>',
      'partition processes kept for small documents, started with the server beyond --num-processes (default 2; 0: none)',
      nonNegativeInt,
    )
    .option(
      '--max-documents-per-process <n>',
      'replace a partition process after this many documents, returning its memory (default 100; 0: never)',
      nonNegativeInt,
    )
    .option('--idle-recycle <seconds>', 'end a partition process idle this long after work; a fresh one takes its place (default 30; 0: never)', nonNegativeInt)
    .option(
      '--no-background-priority',
      "run the general partition processes at the server's CPU priority (default: 10 nicer on Linux, so that the server and the small lane come first on busy cores)",
    )
    .option(
      '--partition-deadline <seconds>',
      'a legacy request still waiting for or partitioning its documents this long after it arrived is answered 422 NODE_TIMEOUT and its documents stop (default: none)',
      nonNegativeInt,
    );
}

/** The partition pool options of those flags. */
export function partitionSchedulingPoolOptions(flags: PartitionSchedulingFlags): PartitionPoolOptions {
  return {
    ...(flags.smallDocumentMb === undefined ? {} : { smallDocumentBytes: Math.round(flags.smallDocumentMb * 1024 * 1024) }),
    ...(flags.smallLaneProcesses === undefined ? {} : { smallLaneProcesses: flags.smallLaneProcesses }),
    ...(flags.maxDocumentsPerProcess === undefined ? {} : { maxDocumentsPerProcess: flags.maxDocumentsPerProcess }),
    ...(flags.idleRecycle === undefined ? {} : { idleTimeoutMs: flags.idleRecycle * 1000 }),
    backgroundPriority: flags.backgroundPriority !== false,
  };
}
