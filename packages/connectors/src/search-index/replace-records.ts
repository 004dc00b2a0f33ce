import { errorMessage, QuarryError, quarryError } from '@quarry/core';
import { redact } from './auth.js';
import {
  bulkDelete,
  deleteLine,
  retryingStep,
  rowIds,
  sendIndexRequest,
  splitRequests,
  type BulkItemError,
  type BulkTarget,
  type IndexItem,
  type ItemFailures,
} from './bulk-requests.js';
import { searchIndexError } from './errors.js';
import type { RecordIdLookup } from './mapping.js';

/** One write of a record waiting to be replaced: its rows as NDJSON, and how to settle it. */
export interface RecordWrite {
  recordId: string;
  /** NDJSON of each document: action line + source line, newline-terminated. */
  items: string[];
  /** UTF-8 bytes of each item. */
  sizes: number[];
  ids: string[];
  bytes: number;
  signal: AbortSignal;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * The replace protocol, write-first: a record's current row ids are looked up, its new rows are
 * indexed (an element present in both versions is overwritten in place: same `_id`), and only then
 * are the old rows the new version does not hold deleted. A failure at any step leaves each record's
 * old version (every old `_id`) or its new version whole: a record whose rows could not all be indexed
 * loses only the rows it added, and one whose stale rows could not be deleted keeps both versions
 * until a rerun deletes them.
 */
export class RecordReplacer {
  /** Records indexed since the last refresh this replacer asked for. */
  private readonly unrefreshed = new Set<string>();
  /**
   * Set when the destination created the index: its only rows are then the ones sent from here,
   * listed here, and a record not listed has nothing to delete.
   */
  private sentTo: Set<string> | undefined;

  constructor(
    private readonly t: BulkTarget,
    private readonly lookup: () => RecordIdLookup,
  ) {}

  /** True when a record has been written since the last refresh. */
  get dirty(): boolean {
    return this.unrefreshed.size > 0;
  }

  /** The index was just created: only records written from here have rows to replace. */
  indexCreated(): void {
    this.sentTo = new Set();
  }

  /** The index was there already: any record may have rows to replace. */
  indexFound(): void {
    this.sentTo = undefined;
  }

  /** Makes every written row visible to search (and to the next replacement's delete). */
  async refresh(): Promise<void> {
    const done = [...this.unrefreshed];
    try {
      await this.t.client.indices.refresh({ index: this.t.index });
    } catch (e) {
      throw searchIndexError(e, `refreshing index "${this.t.index}"`, this.t.facts);
    }
    for (const r of done) this.unrefreshed.delete(r);
  }

  /**
   * Replaces a batch of records (each once) and settles their writes. `signal` ends the waits
   * between retries: a record not indexed whole then keeps its old version, and its write rejects.
   */
  async replace(batch: RecordWrite[], signal: AbortSignal): Promise<void> {
    let previous: Map<string, string[]>;
    try {
      previous = await this.previousIds(
        batch.map((e) => e.recordId),
        signal,
      );
    } catch (e) {
      for (const write of batch) write.reject(signal.aborted ? aborted(write.recordId, signal.reason) : e);
      return;
    }
    if (this.sentTo) for (const write of batch) this.sentTo.add(write.recordId);
    const failures = new Map<RecordWrite, ItemFailures>();
    const items: Array<IndexItem<RecordWrite>> = batch.flatMap((write) =>
      write.items.map((line, i) => ({ owner: write, line, id: write.ids[i]!, bytes: write.sizes[i]! })),
    );
    for (const request of splitRequests(items, this.t.batchSizeBytes)) await sendIndexRequest(this.t, request, failures, signal);
    const replaced: Array<{ write: RecordWrite; stale: string[] }> = [];
    for (const write of batch) {
      this.unrefreshed.add(write.recordId);
      const old = new Set(previous.get(write.recordId) ?? []);
      const failed = failures.get(write);
      if (!failed) {
        const fresh = new Set(write.ids);
        replaced.push({ write, stale: [...old].filter((id) => !fresh.has(id)) });
        continue;
      }
      // Rows this write added (any it sent, when the request got no answer) go; the old version stays.
      const rejected = new Set(failed.errors.map((f) => f.id));
      const added = write.ids.filter((id) => !rejected.has(id) && !old.has(id));
      if (added.length > 0) {
        await bulkDelete(this.t, added.map(deleteLine).join('')).catch((e: unknown) =>
          this.t.logger.warn('search index: cannot remove the rows a failed record added', {
            record_id: write.recordId,
            index: this.t.index,
            error: errorMessage(e),
          }),
        );
      }
      write.reject(
        signal.aborted && failed.errors.length === 0 ? aborted(write.recordId, signal.reason) : this.itemFailure(write, failed.errors, failed.cause),
      );
    }
    await this.removeStale(replaced, signal);
  }

  /** Deletes the old rows of replaced records (one bulk request per `batchSizeBytes`), then settles their writes. */
  private async removeStale(replaced: Array<{ write: RecordWrite; stale: string[] }>, signal: AbortSignal): Promise<void> {
    const failed = new Map<RecordWrite, unknown>();
    const lines = replaced.flatMap(({ write, stale }) => stale.map((id) => ({ write, line: deleteLine(id), bytes: 0 })));
    for (const line of lines) line.bytes = line.line.length;
    for (const chunk of splitRequests(lines, this.t.batchSizeBytes)) {
      try {
        await retryingStep(this.t, 'deleting the replaced rows', () => bulkDelete(this.t, chunk.map((c) => c.line).join('')), signal);
      } catch (e) {
        for (const c of chunk) failed.set(c.write, e);
      }
    }
    for (const { write, stale } of replaced) {
      const e = failed.get(write);
      if (e === undefined) {
        write.resolve();
        continue;
      }
      const message = `the new version of "${write.recordId}" is in index "${this.t.index}" but ${stale.length} rows of its old version could not be deleted (a rerun deletes them): ${errorMessage(e)}`;
      write.reject(
        new QuarryError('DESTINATION_WRITE_FAILED', message, {
          cause: e,
          details: { record_id: write.recordId, index: this.t.index, stale_rows: stale.length },
        }),
      );
    }
  }

  private itemFailure(write: RecordWrite, errors: BulkItemError[], cause: unknown): QuarryError {
    if (errors.length === 0 && cause !== undefined) {
      const e = searchIndexError(cause, `writing "${write.recordId}" to index "${this.t.index}"`, this.t.facts, { record_id: write.recordId });
      return e.code === 'SEARCH_INDEX_REQUEST_FAILED' ? new QuarryError('DESTINATION_WRITE_FAILED', e.message, { cause, details: e.details }) : e;
    }
    const first = errors.slice(0, 3).map((f) => `${f.status} ${f.type}: ${redact(f.reason, this.t.facts.secrets)}`);
    return quarryError(
      'DESTINATION_WRITE_FAILED',
      `index "${this.t.index}" rejected ${errors.length} of ${write.ids.length} elements of "${write.recordId}": ${first.join('; ')}`,
      { details: { record_id: write.recordId, index: this.t.index, item_errors: errors.slice(0, 10) }, ...(cause === undefined ? {} : { cause }) },
    );
  }

  /**
   * The ids of the rows that some records have now (refreshing first when they were written since
   * the last refresh: searches see refreshed rows only). A record never sent into an index the
   * destination created has none, and is not looked up.
   */
  private async previousIds(batch: string[], signal: AbortSignal): Promise<Map<string, string[]>> {
    const sentTo = this.sentTo;
    const recordIds = sentTo ? batch.filter((r) => sentTo.has(r)) : batch;
    const found = new Map<string, string[]>();
    if (recordIds.length === 0) return found;
    if (recordIds.some((r) => this.unrefreshed.has(r))) await this.refresh();
    const lookup = this.lookup();
    const byTerm = lookup.kind === 'term' ? recordIds.filter((r) => lookup.ignoreAbove === undefined || [...r].length <= lookup.ignoreAbove) : [];
    const byPhrase = recordIds.filter((r) => !byTerm.includes(r));
    if (byTerm.length > 0 && lookup.kind === 'term') {
      const rows = await retryingStep(this.t, 'finding the rows to replace', () => rowIds(this.t, { terms: { [lookup.field]: byTerm } }), signal);
      for (const { id, recordId } of rows) found.set(recordId, [...(found.get(recordId) ?? []), id]);
    }
    for (const r of byPhrase) {
      // record_id is analysed text here: the phrase narrows, the exact comparison decides.
      const rows = await retryingStep(this.t, 'finding the rows to replace', () => rowIds(this.t, { match_phrase: { record_id: r } }), signal);
      found.set(
        r,
        rows.filter((row) => row.recordId === r).map((row) => row.id),
      );
    }
    return found;
  }
}

/** The error of a write cancelled by its job. */
export function aborted(recordId: string, reason: unknown): QuarryError {
  return quarryError('JOB_ABORTED', `writing "${recordId}" was cancelled`, { cause: reason, details: { record_id: recordId } });
}
