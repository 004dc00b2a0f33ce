import { errorMessage, isQuarryError, type Element, type Logger, type WorkerReply, type WorkerTask } from '@quarry/core';
import { partitionFile, type PartitionFileRequest } from '../partition/partition-file.js';

/** One document to partition in a worker: its bytes and the request (without signal and logger). */
export interface PartitionTask {
  bytes: Uint8Array;
  request: Omit<PartitionFileRequest, 'signal' | 'logger'>;
}

/** A log line a worker recorded while partitioning, replayed on the caller's logger. */
export interface PartitionLogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, unknown>;
}

/** What a worker returns for one document: its elements (plain data) and the log lines. */
export interface PartitionTaskResult {
  elements: Element[];
  log: PartitionLogEntry[];
}

/**
 * Partitions the document of one pool message with `partitionFile` and builds the reply: the
 * elements, or the coded error of that document alone. Log lines are collected (a worker has no
 * logger of the job) and travel back with the elements.
 */
export async function handlePartitionTask({ id, task }: WorkerTask<PartitionTask>): Promise<WorkerReply<PartitionTaskResult>> {
  const log: PartitionLogEntry[] = [];
  const record = (level: PartitionLogEntry['level']) => (message: string, fields?: Record<string, unknown>) => {
    log.push({ level, message, ...(fields ? { fields } : {}) });
  };
  const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
  try {
    const elements = await partitionFile(task.bytes, { ...task.request, logger });
    return { id, ok: true, result: { elements, log } };
  } catch (e) {
    return {
      id,
      ok: false,
      error: { code: isQuarryError(e) ? e.code : 'NODE_FAILED', message: errorMessage(e), ...(isQuarryError(e) ? { details: e.details } : {}) },
    };
  }
}
