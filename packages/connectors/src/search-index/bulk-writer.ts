import { backoffDelay, errorMessage, QuarryError, quarryError, sleep, type Logger } from '@quarry/core';
import type { Client } from '@elastic/elasticsearch';
import { redact } from './auth.js';
import { searchIndexError, statusOf, type ConnectionFacts } from './errors.js';
import type { RecordIdLookup } from './mapping.js';
import type { SearchDocument } from './search-document.js';

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
}

/** One item a bulk request rejected for good. */
export interface BulkItemError {
  id: string;
  status: number;
  type: string;
  reason: string;
}

interface Entry {
  recordId: string;
  /** NDJSON of each document: action line + source line, newline-terminated. */
  items: string[];
  /** UTF-8 bytes of each item. */
  sizes: number[];
  ids: string[];
  bytes: number;
  resolve: () => void;
  reject: (e: unknown) => void;
  detach: () => void;
}

interface Item {
  entry: Entry;
  index: number;
}


/** True for answers worth repeating: rejected for load (429), a server error, or no answer at all. */
function retryable(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
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
 * the last write of a record wins whole.
 *
 * Retries: a bulk request answered 429 or 5xx (or not answered) is sent again after an exponential
 * back-off, and so are the items of a response that were rejected with 429 or 5xx. An item rejected
 * for another reason fails its record alone: the rows this write added are removed (the old version
 * stays), and its write rejects with `DESTINATION_WRITE_FAILED` listing the first item errors.
 *
 * Lookups see only refreshed rows, so a record written earlier by this writer is made visible with a
 * refresh of the index before it is replaced again (only then: a job writes each record once). In an
 * index the destination has just created (see {@link BulkWriter.indexCreated}), only records this
 * writer wrote before have rows to look up.
 */
export class BulkWriter {
  private readonly pending: Entry[] = [];
  private readonly busy = new Set<string>();
  /** Records indexed since the last refresh this writer asked for. */
  private readonly unrefreshed = new Set<string>();
  /**
   * Set when this writer's destination created the index: its only rows are then the ones this
   * writer sent, listed here, and a record not listed has nothing to delete.
   */
  private sentTo: Set<string> | undefined;
  private inflight = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private readonly idle: Array<() => void> = [];

  constructor(private readonly o: BulkWriterOptions) {}

  /** True when a record has been written since the last refresh. */
  get dirty(): boolean {
    return this.unrefreshed.size > 0;
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
      const entry: Entry = {
        recordId,
        items,
        sizes,
        ids,
        bytes,
        resolve,
        reject,
        detach: () => this.unwatch(signal, entry),
      };
      this.watch(signal, entry);
      this.pending.push(entry);
      this.schedule();
    });
  }

  /**
   * One abort listener per signal (a job's writes share one), not one per write: a write still
   * waiting is withdrawn on abort; one already sent finishes, so no record is half-replaced.
   */
  private readonly watched = new Map<AbortSignal, { entries: Set<Entry>; listener: () => void }>();

  private watch(signal: AbortSignal, entry: Entry): void {
    let w = this.watched.get(signal);
    if (!w) {
      const entries = new Set<Entry>();
      const listener = (): void => {
        this.watched.delete(signal);
        for (const e of entries) {
          const i = this.pending.indexOf(e);
          if (i < 0) continue;
          this.pending.splice(i, 1);
          e.reject(aborted(e.recordId, signal.reason));
        }
        this.notifyIdle();
      };
      w = { entries, listener };
      this.watched.set(signal, w);
      signal.addEventListener('abort', listener, { once: true });
    }
    w.entries.add(entry);
  }

  private unwatch(signal: AbortSignal, entry: Entry): void {
    const w = this.watched.get(signal);
    if (!w) return;
    w.entries.delete(entry);
    if (w.entries.size === 0) {
      signal.removeEventListener('abort', w.listener);
      this.watched.delete(signal);
    }
  }

  /** Resolves when nothing is pending or in flight. */
  drain(): Promise<void> {
    if (this.inflight === 0 && this.pending.length === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  /**
   * Tells the writer that its destination has just created the index: replacing a record then
   * deletes rows only when this writer wrote that record before (a first load sends no deletes).
   */
  indexCreated(): void {
    this.sentTo = new Set();
  }

  /** Tells the writer that the index was there already: any record may have rows to replace. */
  indexFound(): void {
    this.sentTo = undefined;
  }

  /** Makes every written row visible to search (and to the next replacement's delete). */
  async refresh(): Promise<void> {
    const done = [...this.unrefreshed];
    try {
      await this.o.client.indices.refresh({ index: this.o.index });
    } catch (e) {
      throw searchIndexError(e, `refreshing index "${this.o.index}"`, this.o.facts);
    }
    for (const r of done) this.unrefreshed.delete(r);
  }

  private notifyIdle(): void {
    if (this.inflight === 0 && this.pending.length === 0) for (const r of this.idle.splice(0)) r();
  }

  private schedule(): void {
    if (this.pending.length === 0 || this.inflight >= this.o.concurrency) return;
    const queued = this.pending.reduce((n, e) => n + e.bytes, 0);
    if (this.inflight === 0 || queued >= this.o.batchSizeBytes) {
      // Writes of the same tick go together.
      this.immediate ??= setImmediate(() => {
        this.immediate = undefined;
        this.pump();
      });
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, LINGER_MS);
    }
  }

  private pump(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    // What is waiting is spread over the free slots (in batches of at least SPREAD_MIN_BYTES): one
    // batch holding everything would leave this thread idle while the cluster indexes it, and the
    // cluster idle while the next writes are staged.
    const queued = this.pending.reduce((n, e) => n + e.bytes, 0);
    const spread = Math.ceil(queued / Math.max(1, this.o.concurrency - this.inflight));
    const share = Math.min(this.o.batchSizeBytes, Math.max(SPREAD_MIN_BYTES, spread));
    while (this.inflight < this.o.concurrency && this.pending.length > 0) {
      const batch = this.take(share);
      if (batch.length === 0) break;
      this.inflight++;
      for (const e of batch) this.busy.add(e.recordId);
      void this.run(batch).finally(() => {
        this.inflight--;
        for (const e of batch) this.busy.delete(e.recordId);
        this.notifyIdle();
        this.schedule();
      });
    }
  }

  /**
   * First-come first-served, skipping records already in flight or already in this batch, up to
   * `limit` bytes (one write larger than that goes alone).
   */
  private take(limit: number): Entry[] {
    const batch: Entry[] = [];
    const taken = new Set<string>();
    let bytes = 0;
    for (let i = 0; i < this.pending.length; ) {
      const e = this.pending[i]!;
      if (this.busy.has(e.recordId) || taken.has(e.recordId)) {
        i++;
        continue;
      }
      if (batch.length > 0 && bytes + e.bytes > limit) break;
      this.pending.splice(i, 1);
      e.detach();
      batch.push(e);
      taken.add(e.recordId);
      bytes += e.bytes;
    }
    return batch;
  }

  /**
   * Replaces the batch's records write-first: their current row ids are looked up, the new rows are
   * indexed (an element present in both versions is overwritten in place: same `_id`), and only then
   * are the old rows that the new version does not hold deleted. A failure at any step leaves each
   * record's old version (every old `_id`) or its new version whole: a record whose rows could not all
   * be indexed loses only the rows it added, and one whose stale rows could not be deleted keeps both
   * versions until a rerun deletes them.
   */
  private async run(batch: Entry[]): Promise<void> {
    let previous: Map<string, string[]>;
    try {
      previous = await this.previousIds(batch.map((e) => e.recordId));
    } catch (e) {
      for (const entry of batch) entry.reject(e);
      return;
    }
    if (this.sentTo) for (const entry of batch) this.sentTo.add(entry.recordId);
    const failures = new Map<Entry, { errors: BulkItemError[]; cause?: unknown }>();
    const items: Item[] = batch.flatMap((entry) => entry.items.map((_, index) => ({ entry, index })));
    for (const request of this.split(items)) await this.send(request, failures);
    const replaced: Array<{ entry: Entry; stale: string[] }> = [];
    for (const entry of batch) {
      this.unrefreshed.add(entry.recordId);
      const old = new Set(previous.get(entry.recordId) ?? []);
      const failed = failures.get(entry);
      if (!failed) {
        const fresh = new Set(entry.ids);
        replaced.push({ entry, stale: [...old].filter((id) => !fresh.has(id)) });
        continue;
      }
      // Rows this write added (any it sent, when the request got no answer) go; the old version stays.
      const rejected = new Set(failed.errors.map((f) => f.id));
      await this.deleteIds(entry.ids.filter((id) => !rejected.has(id) && !old.has(id))).catch((e: unknown) =>
        this.o.logger.warn('search index: cannot remove the rows a failed record added', { record_id: entry.recordId, index: this.o.index, error: errorMessage(e) }),
      );
      entry.reject(this.itemFailure(entry, failed.errors, failed.cause));
    }
    await this.removeStale(replaced);
  }

  /** Deletes the old rows of replaced records (one bulk request per `batchSizeBytes`), then settles their writes. */
  private async removeStale(replaced: Array<{ entry: Entry; stale: string[] }>): Promise<void> {
    const failed = new Map<Entry, unknown>();
    const lines = replaced.flatMap(({ entry, stale }) => stale.map((id) => ({ entry, line: `${JSON.stringify({ delete: { _id: id } })}\n` })));
    for (let i = 0; i < lines.length; ) {
      const chunk: typeof lines = [];
      let bytes = 0;
      while (i < lines.length && (chunk.length === 0 || bytes + lines[i]!.line.length <= this.o.batchSizeBytes)) {
        bytes += lines[i]!.line.length;
        chunk.push(lines[i++]!);
      }
      try {
        await this.retrying('deleting the replaced rows', () => this.bulkDelete(chunk.map((c) => c.line).join('')));
      } catch (e) {
        for (const c of chunk) failed.set(c.entry, e);
      }
    }
    for (const { entry, stale } of replaced) {
      const e = failed.get(entry);
      if (e === undefined) {
        entry.resolve();
        continue;
      }
      const message = `the new version of "${entry.recordId}" is in index "${this.o.index}" but ${stale.length} rows of its old version could not be deleted (a rerun deletes them): ${errorMessage(e)}`;
      entry.reject(new QuarryError('DESTINATION_WRITE_FAILED', message, { cause: e, details: { record_id: entry.recordId, index: this.o.index, stale_rows: stale.length } }));
    }
  }

  private itemFailure(entry: Entry, errors: BulkItemError[], cause: unknown): QuarryError {
    if (errors.length === 0 && cause !== undefined) {
      const e = searchIndexError(cause, `writing "${entry.recordId}" to index "${this.o.index}"`, this.o.facts, { record_id: entry.recordId });
      return e.code === 'SEARCH_INDEX_REQUEST_FAILED' ? new QuarryError('DESTINATION_WRITE_FAILED', e.message, { cause, details: e.details }) : e;
    }
    const first = errors.slice(0, 3).map((f) => `${f.status} ${f.type}: ${redact(f.reason, this.o.facts.secrets)}`);
    return quarryError(
      'DESTINATION_WRITE_FAILED',
      `index "${this.o.index}" rejected ${errors.length} of ${entry.ids.length} elements of "${entry.recordId}": ${first.join('; ')}`,
      { details: { record_id: entry.recordId, index: this.o.index, item_errors: errors.slice(0, 10) }, ...(cause === undefined ? {} : { cause }) },
    );
  }

  /** Splits items into bulk request bodies of at most `batchSizeBytes` (an oversized item goes alone). */
  private split(items: Item[]): Item[][] {
    const out: Item[][] = [];
    let current: Item[] = [];
    let bytes = 0;
    for (const it of items) {
      const size = it.entry.sizes[it.index]!;
      if (current.length > 0 && bytes + size > this.o.batchSizeBytes) {
        out.push(current);
        current = [];
        bytes = 0;
      }
      current.push(it);
      bytes += size;
    }
    if (current.length) out.push(current);
    return out;
  }

  /** Sends one bulk request, retrying it (or its rejected-for-load items) with back-off. */
  private async send(items: Item[], failures: Map<Entry, { errors: BulkItemError[]; cause?: unknown }>): Promise<void> {
    let todo = items;
    for (let attempt = 0; ; attempt++) {
      let response: { errors: boolean; items: Array<Record<string, { status: number; error?: { type?: string; reason?: string } } | undefined>> };
      try {
        response = (await this.o.client.bulk(
          // A pre-serialised NDJSON body is sent as is: items are sized in bytes once.
          { index: this.o.index, operations: todo.map((it) => it.entry.items[it.index]!).join('') as unknown as [] },
          { maxRetries: 0 },
        )) as unknown as typeof response;
      } catch (e) {
        const status = statusOf(e);
        if (retryable(status) && attempt < this.o.maxRetries) {
          this.o.logger.debug('search index: bulk request will be retried', { index: this.o.index, status, attempt: attempt + 1 });
          await sleep(backoffDelay(attempt, this.o.retryInitialMs, this.o.retryMaxMs));
          continue;
        }
        for (const it of todo) {
          const f = failures.get(it.entry) ?? { errors: [] };
          f.cause = e;
          failures.set(it.entry, f);
        }
        return;
      }
      if (!response.errors) return;
      const again: Item[] = [];
      response.items.forEach((result, i) => {
        const r = Object.values(result)[0];
        const it = todo[i];
        if (!r || !it || r.status < 300) return;
        if (retryable(r.status) && attempt < this.o.maxRetries) {
          again.push(it);
          return;
        }
        const f = failures.get(it.entry) ?? { errors: [] };
        f.errors.push({
          id: it.entry.ids[it.index]!,
          status: r.status,
          type: r.error?.type ?? 'unknown',
          reason: (r.error?.reason ?? '') + (retryable(r.status) ? ` (still rejected after ${this.o.maxRetries} retries)` : ''),
        });
        failures.set(it.entry, f);
      });
      if (again.length === 0) return;
      this.o.logger.debug('search index: bulk items will be retried', { index: this.o.index, items: again.length, attempt: attempt + 1 });
      await sleep(backoffDelay(attempt, this.o.retryInitialMs, this.o.retryMaxMs));
      todo = again;
    }
  }

  /**
   * The ids of the rows that some records have now (refreshing first when this writer wrote them
   * since the last refresh: searches see refreshed rows only). A record this writer never sent into
   * an index it created has none, and is not looked up.
   */
  private async previousIds(batch: string[]): Promise<Map<string, string[]>> {
    const sentTo = this.sentTo;
    const recordIds = sentTo ? batch.filter((r) => sentTo.has(r)) : batch;
    const found = new Map<string, string[]>();
    if (recordIds.length === 0) return found;
    if (recordIds.some((r) => this.unrefreshed.has(r))) await this.refresh();
    const lookup = this.o.lookup();
    const byTerm = lookup.kind === 'term' ? recordIds.filter((r) => lookup.ignoreAbove === undefined || [...r].length <= lookup.ignoreAbove) : [];
    const byPhrase = recordIds.filter((r) => !byTerm.includes(r));
    if (byTerm.length > 0 && lookup.kind === 'term') {
      const rows = await this.retrying('finding the rows to replace', () => this.rowIds({ terms: { [lookup.field]: byTerm } }));
      for (const { id, recordId } of rows) found.set(recordId, [...(found.get(recordId) ?? []), id]);
    }
    for (const r of byPhrase) {
      // record_id is analysed text here: the phrase narrows, the exact comparison decides.
      const rows = await this.retrying('finding the rows to replace', () => this.rowIds({ match_phrase: { record_id: r } }));
      found.set(
        r,
        rows.filter((row) => row.recordId === r).map((row) => row.id),
      );
    }
    return found;
  }

  /** `_id` and `record_id` of every (refreshed) row a query matches, a page of 1000 at a time. */
  private async rowIds(query: Record<string, unknown>): Promise<Array<{ id: string; recordId: string }>> {
    const rows: Array<{ id: string; recordId: string }> = [];
    let after: unknown[] | undefined;
    for (;;) {
      const r = await this.o.client.search<{ record_id?: string }>(
        { index: this.o.index, query, _source: ['record_id'], sort: ['_doc'], size: 1000, ...(after ? { search_after: after as never } : {}) },
        { maxRetries: 0 },
      );
      const hits = r.hits.hits;
      for (const h of hits) if (h._id && typeof h._source?.record_id === 'string') rows.push({ id: h._id, recordId: h._source.record_id });
      if (hits.length < 1000) return rows;
      after = hits[hits.length - 1]!.sort;
    }
  }

  private async deleteIds(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.bulkDelete(ids.map((id) => `${JSON.stringify({ delete: { _id: id } })}\n`).join(''));
  }

  /** Sends one bulk request of deletes; an item that failed (other than `not_found`) fails it. */
  private async bulkDelete(body: string): Promise<void> {
    type Answer = { errors: boolean; items: Array<{ delete?: { _id?: string; status: number; error?: { type?: string; reason?: string } } }> };
    const r = (await this.o.client.bulk({ index: this.o.index, operations: body as unknown as [] }, { maxRetries: 0 })) as unknown as Answer;
    if (!r.errors) return;
    const bad = r.items.map((it) => it.delete).filter((d) => d !== undefined && d.status >= 300 && d.status !== 404);
    if (bad.length === 0) return;
    const worst = bad.some((d) => retryable(d!.status)) ? bad.find((d) => retryable(d!.status))! : bad[0]!;
    throw new BulkDeleteFailed(worst.status, worst.error?.type ?? 'unknown', `${bad.length} deletes rejected, first ${worst._id}: ${worst.error?.reason ?? ''}`);
  }

  /** Runs a lookup or delete step, retrying answers worth repeating; anything else fails with a coded error. */
  private async retrying<T>(action: string, fn: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await fn();
      } catch (e) {
        if (retryable(statusOf(e)) && attempt < this.o.maxRetries) {
          await sleep(backoffDelay(attempt, this.o.retryInitialMs, this.o.retryMaxMs));
          continue;
        }
        const err = searchIndexError(e, `${action} in index "${this.o.index}"`, this.o.facts);
        throw err.code === 'SEARCH_INDEX_REQUEST_FAILED' ? new QuarryError('DESTINATION_WRITE_FAILED', err.message, { cause: e, details: err.details }) : err;
      }
    }
  }
}

/** Item failures of a bulk delete, shaped as a client error (status and body) for retries and messages. */
class BulkDeleteFailed extends Error {
  readonly meta: { statusCode: number; body: { error: { type: string; reason: string } } };
  constructor(status: number, type: string, reason: string) {
    super(reason);
    this.meta = { statusCode: status, body: { error: { type, reason } } };
  }
}

function aborted(recordId: string, reason: unknown): QuarryError {
  return quarryError('JOB_ABORTED', `writing "${recordId}" was cancelled`, { cause: reason, details: { record_id: recordId } });
}
