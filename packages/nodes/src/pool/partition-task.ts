import { readFile } from 'node:fs/promises';
import type { Element, Logger } from '@quarry/core';
import { errorMessage, isQuarryError, quarryError } from '@quarry/core/errors';
import { partitionFile, type PartitionFileRequest } from '../partition/partition-file.js';
import { writeElementJsonFile } from './element-json-file.js';
import { elementSlices } from './element-slices.js';
import type { PooledChunking, PooledChunkingFailure } from './pooled-chunking.js';

/** The chunk task's module, imported by URL, which the worker bundle does not follow: a `quarry partition` process never loads the chunkers. */
export const CHUNK_TASK_MODULE = new URL(`./chunk-task${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href;

/** One document to partition in a worker: its bytes (or the file holding them) and the request (without signal and logger). */
export interface PartitionTask {
  bytes?: Uint8Array;
  /** Read in the worker when there are no `bytes`: a staged upload never sits in the caller's memory. */
  path?: string;
  request: Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>;
  /**
   * Write the element JSON array into `file` instead of sending the elements back; a failed write
   * names `target`, the file it is written for (`file` is a temporary name the caller renames).
   */
  output?: { file: string; target: string };
  /** Chunk the elements before they go back (no `output` then): only the chunks cross to the caller. */
  chunk?: PooledChunking;
}

/** A log line a worker recorded while partitioning, replayed on the caller's logger. */
export interface PartitionLogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/**
 * What a worker returns for one document: its elements (plain data; none when written to the
 * task's `output`; the last of them when the others went ahead as parts) and the log lines.
 */
export interface PartitionTaskResult {
  elements: Element[];
  log: PartitionLogEntry[];
  /** How many elements went into the task's `output` file. */
  written?: number;
  /** The task's chunker failed (`elements` is empty): its coded failure, for the chunker node to report. */
  chunkFailure?: PooledChunkingFailure;
}

/**
 * Partitions the document of one pool task with `partitionFile`: its elements (or, given an
 * `output`, their JSON written into its file), with the log lines collected on the way (a worker
 * has no logger of the job) to travel back beside them. A failure throws `partitionFile`'s coded
 * error (a failed write `DESTINATION_WRITE_FAILED`), which the pool hands to the caller with its
 * code; `signal` (the pool's, when the caller gives up) stops it between pages with `JOB_ABORTED`;
 * `heavy` (the pool's) is called when the document turns out to need OCR, so that the pool frees
 * its small lane. Given a `chunk`, the elements are chunked here and only the chunks go back; a
 * chunker failure comes back as the result's `chunkFailure`, not as the document's. Given `part` (the pool's, when the caller takes parts), a long list of elements
 * goes back in slices of some 256 kB, each sent once the caller has the one before; the last slice
 * is the result's `elements`.
 */
export async function handlePartitionTask(
  task: PartitionTask,
  signal?: AbortSignal,
  heavy?: () => void,
  part?: (elements: Element[]) => Promise<void>,
): Promise<PartitionTaskResult> {
  const log: PartitionLogEntry[] = [];
  const record = (level: PartitionLogEntry['level']) => (message: string, fields?: Record<string, unknown>) => {
    log.push({ level, message, ...(fields ? { fields } : {}) });
  };
  const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  const elements = await partitionFile(task.bytes ?? (await readBytes(task.path, task.request.filename)), {
    ...task.request,
    logger,
    ...(signal ? { signal } : {}),
    ...(heavy ? { onHeavyWork: heavy } : {}),
  });
  if (task.chunk) return chunkAndReturn(elements, task.chunk, log, part);
  if (!task.output) return inParts(elements, log, part);
  // Written here, the elements never cross back to the caller's process: for a long document
  // their serialization, on both sides of the channel, cost more than the JSON.
  await writeElementJsonFile(elements, task.output.file, task.output.target);
  return { elements: [], log, written: elements.length };
}

/** Chunks the elements in this process; the chunks go back as the elements would have (in parts given `part`), a failure as data. */
async function chunkAndReturn(
  elements: Element[],
  chunking: PooledChunking,
  log: PartitionLogEntry[],
  part?: (elements: Element[]) => Promise<void>,
): Promise<PartitionTaskResult> {
  let chunks: Element[];
  try {
    const mod = (await import(CHUNK_TASK_MODULE)) as typeof import('./chunk-task.js');
    chunks = await mod.chunkInProcess(elements, chunking);
  } catch (e) {
    // The document partitioned: its failure is the chunker node's, which reports it in the caller's process.
    const failure: PooledChunkingFailure = isQuarryError(e)
      ? { code: e.code, message: e.message, details: e.details }
      : { code: 'NODE_FAILED', message: errorMessage(e) };
    return { elements: [], log, chunkFailure: failure };
  }
  return inParts(chunks, log, part);
}

/** The result of `elements`: given `part`, all but the last slice of some 256 kB go ahead as parts, each once the caller has the one before. */
async function inParts(elements: Element[], log: PartitionLogEntry[], part?: (elements: Element[]) => Promise<void>): Promise<PartitionTaskResult> {
  if (!part) return { elements, log };
  const slices = elementSlices(elements);
  for (const slice of slices.slice(0, -1)) await part(slice);
  return { elements: slices.at(-1) ?? [], log };
}

// A plain Uint8Array view: some format parsers (pdf.js) refuse Node Buffers.
async function readBytes(path: string | undefined, filename: string): Promise<Uint8Array> {
  if (path === undefined) throw new TypeError('a partition task needs bytes or a path');
  try {
    const b = await readFile(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch (e) {
    throw quarryError('DOCUMENT_READ_FAILED', `cannot read ${filename}: ${errorMessage(e)}`, { cause: e, details: { filename } });
  }
}
