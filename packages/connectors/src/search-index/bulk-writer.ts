import { BatchQueue, type SchedulerLike } from '@quarry/core/concurrency';
import type { Logger } from '@quarry/core';
import type { Client } from '@elastic/elasticsearch';
import type { ConnectionFacts } from './errors.js';
import type { RecordIdLookup } from './mapping.js';
import { aborted, RecordReplacer, type RecordWrite } from './replace-records.js';
import type { SearchDocument } from './search-document.js';

export type { BulkItemError } from './bulk-requests.js';

/** Tuning of a {@link BulkWriter}. */
export interface BulkWriterOptions {
  client: Client;
  index: string;
  facts: ConnectionFacts;
  logger: Logger;
  /** Largest bulk request body in bytes (one item larger than this goes alone). */
  batchSizeBytes: number;
  /** Batches in flight at once. */
  concurrency: number;
  maxRetries: number;
  retryInitialMs: number;
  retryMaxMs: number;
  /** How to find a record's existing rows; known once the index mapping is. */
  lookup: () => RecordIdLookup;
  /** Where the batching and retry timers run (default rxjs' `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/** Smallest batch that waiting writes are split into to keep several requests in flight. */
const SPREAD_MIN_BYTES = 256 * 1024;

/** Waiting time of a write that arrives while others are in flight, so that it joins a fuller batch. */
const LINGER_MS = 5;

/**
 * Writes whole records to an index: every write replaces one record, write-first (look up its row
 * ids, bulk index the new rows, then delete the old rows the new version does not hold), so the index
 * holds each record's old or new version at every moment, never neither. Writes that arrive together
 * are batched: one lookup, bulk requests of at most `batchSizeBytes`, one delete; a record never shares
 * a batch with another write of itself, and two batches holding the same record never run at once, so
 * the last write of a record wins whole. What waits is spread over the free request slots.
 *
 * Retries: a bulk request answered 429 or 5xx (or not answered) is sent again after an exponential
 * back-off, and so are the items of a response that were rejected with 429 or 5xx. An item rejected
 * for another reason fails its record alone: the rows this write added are removed (the old version
 * stays), and its write rejects with `DESTINATION_WRITE_FAILED` listing the first item errors.
 *
 * Cancelling: a write still waiting is withdrawn when its signal aborts; one already sent finishes
 * its step, but the waits between retries stop once every write of its batch is cancelled, and a
 * record not indexed whole then keeps its old version.
 *
 * Lookups see only refreshed rows, so a record written earlier by this writer is made visible with a
 * refresh of the index before it is replaced again (only then: a job writes each record once). In an
 * index the destination has just created (see {@link BulkWriter.indexCreated}), only records this
 * writer wrote before have rows to look up.
 */
export class BulkWriter {
  private readonly replacer: RecordReplacer;
  private readonly queue: BatchQueue<RecordWrite>;

  constructor(o: BulkWriterOptions) {
    this.replacer = new RecordReplacer(o, o.lookup);
    this.queue = new BatchQueue<RecordWrite>(
      {
        maxWeight: o.batchSizeBytes,
        spreadMinWeight: SPREAD_MIN_BYTES,
        flushMs: LINGER_MS,
        // Alone, a write waits for the writes of the same turn only.
        idleFlushMs: 0,
        cutOnPush: false,
        concurrency: o.concurrency,
        ...(o.scheduler ? { scheduler: o.scheduler } : {}),
      },
      {
        key: (w) => w.recordId,
        run: (batch) => this.run(batch),
      },
    );
  }

  /** True when a record has been written since the last refresh. */
  get dirty(): boolean {
    return this.replacer.dirty;
  }

  /** Replaces `recordId`'s rows with `documents`; resolves once they are all indexed. */
  write(recordId: string, documents: readonly SearchDocument[], signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(aborted(recordId, signal.reason));
    return new Promise<void>((resolve, reject) => {
      const n = documents.length;
      const items = new Array<string>(n);
      const sizes = new Array<number>(n);
      const ids = new Array<string>(n);
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const d = documents[i]!;
        const item = `{"index":{"_id":${JSON.stringify(d.id)}}}\n${JSON.stringify(d.source)}\n`;
        items[i] = item;
        ids[i] = d.id;
        bytes += sizes[i] = Buffer.byteLength(item);
      }
      const write: RecordWrite = { recordId, items, sizes, ids, bytes, signal, resolve, reject };
      this.watch(signal);
      this.queue.push(write, bytes);
    });
  }

  /** One abort listener per signal (a job's writes share one), not one per write. */
  private readonly watched = new Map<AbortSignal, () => void>();

  private watch(signal: AbortSignal): void {
    if (this.watched.has(signal)) return;
    const listener = (): void => {
      this.watched.delete(signal);
      for (const w of this.queue.remove((w) => w.signal === signal)) w.reject(aborted(w.recordId, signal.reason));
    };
    this.watched.set(signal, listener);
    signal.addEventListener('abort', listener, { once: true });
  }

  /** Resolves when nothing is pending or in flight. */
  drain(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Tells the writer that its destination has just created the index: replacing a record then
   * deletes rows only when this writer wrote that record before (a first load sends no deletes).
   */
  indexCreated(): void {
    this.replacer.indexCreated();
  }

  /** Tells the writer that the index was there already: any record may have rows to replace. */
  indexFound(): void {
    this.replacer.indexFound();
  }

  /** Makes every written row visible to search (and to the next replacement's delete). */
  refresh(): Promise<void> {
    return this.replacer.refresh();
  }

  private async run(batch: RecordWrite[]): Promise<void> {
    const signal = allAborted(batch.map((w) => w.signal));
    try {
      await this.replacer.replace(batch, signal.signal);
    } catch (e) {
      // replace settles every write itself; this is a bug's last line of defence.
      for (const w of batch) w.reject(e);
    } finally {
      signal.dispose();
      if (this.queue.size === 0) this.unwatchAll();
    }
  }

  /** Drops the abort listeners once nothing waits: the signals of finished jobs are not kept. */
  private unwatchAll(): void {
    for (const [signal, listener] of this.watched) signal.removeEventListener('abort', listener);
    this.watched.clear();
  }
}

/** A signal that aborts once every one of `signals` has (the writes of a batch are all cancelled). */
function allAborted(signals: AbortSignal[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const distinct = [...new Set(signals)];
  let left = distinct.filter((s) => !s.aborted).length;
  const onAbort = (): void => {
    if (--left === 0) controller.abort(distinct[0]!.reason);
  };
  if (left === 0) controller.abort(distinct[0]?.reason);
  else for (const s of distinct) if (!s.aborted) s.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, dispose: () => distinct.forEach((s) => s.removeEventListener('abort', onAbort)) };
}
