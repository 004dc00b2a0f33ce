import { retrying, type RetryOptions, type SchedulerLike } from '@quarry/core/concurrency';
import { QuarryError, type Logger } from '@quarry/core';
import type { Client } from '@elastic/elasticsearch';
import { searchIndexError, statusOf, type ConnectionFacts } from './errors.js';

/** Where bulk requests go and how they are retried. */
export interface BulkTarget {
  client: Client;
  index: string;
  facts: ConnectionFacts;
  logger: Logger;
  /** Largest bulk request body in bytes. */
  batchSizeBytes: number;
  maxRetries: number;
  retryInitialMs: number;
  retryMaxMs: number;
  /** Where the waits between retries run (default rxjs' `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/** One item a bulk request rejected for good. */
export interface BulkItemError {
  id: string;
  status: number;
  type: string;
  reason: string;
}

/** One document to index: its NDJSON (action and source lines), `_id` and size in bytes. */
export interface IndexItem<K> {
  owner: K;
  line: string;
  id: string;
  bytes: number;
}

/** What went wrong for one owner's items: the items rejected for good, or why the request failed. */
export interface ItemFailures {
  errors: BulkItemError[];
  cause?: unknown;
}

/** True for answers worth repeating: rejected for load (429), a server error, or no answer at all. */
export function retryable(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
}

/** The retry policy of a target: exponential backoff, waits that stop when `signal` aborts. */
function policy(t: BulkTarget, signal: AbortSignal | undefined): RetryOptions {
  return {
    retries: t.maxRetries,
    baseDelayMs: t.retryInitialMs,
    maxDelayMs: t.retryMaxMs,
    ...(signal ? { signal } : {}),
    ...(t.scheduler ? { scheduler: t.scheduler } : {}),
  };
}

/** Thrown inside an attempt when some items of a bulk answer were rejected for load: they go again. */
class ItemsToRetry extends Error {}

/** Splits items into bulk request bodies of at most `maxBytes` (an oversized item goes alone). */
export function splitRequests<T extends { bytes: number }>(items: readonly T[], maxBytes: number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const it of items) {
    if (current.length > 0 && bytes + it.bytes > maxBytes) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(it);
    bytes += it.bytes;
  }
  if (current.length) out.push(current);
  return out;
}

type BulkAnswer = { errors: boolean; items: Array<Record<string, { status: number; error?: { type?: string; reason?: string } } | undefined>> };

/**
 * Sends one bulk index request, retrying it (when unanswered, 429 or 5xx) or its items rejected for
 * load, with back-off; what still fails is recorded per owner in `failures`. An abort of `signal`
 * ends the waits: the items not indexed yet fail with the abort as their cause.
 */
export async function sendIndexRequest<K>(t: BulkTarget, items: Array<IndexItem<K>>, failures: Map<K, ItemFailures>, signal?: AbortSignal): Promise<void> {
  let todo = items;
  const failAll = (cause: unknown): void => {
    for (const it of todo) {
      const f = failures.get(it.owner) ?? { errors: [] };
      f.cause = cause;
      failures.set(it.owner, f);
    }
  };
  await retrying(
    async (attempt) => {
      const last = attempt >= t.maxRetries;
      let response: BulkAnswer;
      try {
        // A pre-serialised NDJSON body is sent as is: items are sized in bytes once.
        response = (await t.client.bulk(
          { index: t.index, operations: todo.map((it) => it.line).join('') as unknown as [] },
          { maxRetries: 0 },
        )) as unknown as BulkAnswer;
      } catch (e) {
        const status = statusOf(e);
        if (retryable(status) && !last) {
          t.logger.debug('search index: bulk request will be retried', { index: t.index, status, attempt: attempt + 1 });
          throw e;
        }
        failAll(e);
        return;
      }
      if (!response.errors) return;
      const again: Array<IndexItem<K>> = [];
      response.items.forEach((result, i) => {
        const r = Object.values(result)[0];
        const it = todo[i];
        if (!r || !it || r.status < 300) return;
        if (retryable(r.status) && !last) {
          again.push(it);
          return;
        }
        const f = failures.get(it.owner) ?? { errors: [] };
        f.errors.push({
          id: it.id,
          status: r.status,
          type: r.error?.type ?? 'unknown',
          reason: (r.error?.reason ?? '') + (retryable(r.status) ? ` (still rejected after ${t.maxRetries} retries)` : ''),
        });
        failures.set(it.owner, f);
      });
      if (again.length === 0) return;
      t.logger.debug('search index: bulk items will be retried', { index: t.index, items: again.length, attempt: attempt + 1 });
      todo = again;
      throw new ItemsToRetry();
    },
    policy(t, signal),
  ).catch((e: unknown) => failAll(e));
}

/** `_id` and `record_id` of every (refreshed) row a query matches, a page of 1000 at a time. */
export async function rowIds(t: BulkTarget, query: Record<string, unknown>): Promise<Array<{ id: string; recordId: string }>> {
  const rows: Array<{ id: string; recordId: string }> = [];
  let after: unknown[] | undefined;
  for (;;) {
    const r = await t.client.search<{ record_id?: string }>(
      { index: t.index, query, _source: ['record_id'], sort: ['_doc'], size: 1000, ...(after ? { search_after: after as never } : {}) },
      { maxRetries: 0 },
    );
    const hits = r.hits.hits;
    for (const h of hits) if (h._id && typeof h._source?.record_id === 'string') rows.push({ id: h._id, recordId: h._source.record_id });
    if (hits.length < 1000) return rows;
    after = hits[hits.length - 1]!.sort;
  }
}

/** NDJSON delete line of a row. */
export function deleteLine(id: string): string {
  return `${JSON.stringify({ delete: { _id: id } })}\n`;
}

/** Sends one bulk request of deletes; an item that failed (other than `not_found`) fails it. */
export async function bulkDelete(t: BulkTarget, body: string): Promise<void> {
  type Answer = { errors: boolean; items: Array<{ delete?: { _id?: string; status: number; error?: { type?: string; reason?: string } } }> };
  const r = (await t.client.bulk({ index: t.index, operations: body as unknown as [] }, { maxRetries: 0 })) as unknown as Answer;
  if (!r.errors) return;
  const bad = r.items.map((it) => it.delete).filter((d) => d !== undefined && d.status >= 300 && d.status !== 404);
  if (bad.length === 0) return;
  const worst = bad.some((d) => retryable(d!.status)) ? bad.find((d) => retryable(d!.status))! : bad[0]!;
  throw new BulkDeleteFailed(worst.status, worst.error?.type ?? 'unknown', `${bad.length} deletes rejected, first ${worst._id}: ${worst.error?.reason ?? ''}`);
}

/**
 * Runs a lookup or delete step, retrying answers worth repeating (waits stop when `signal` aborts,
 * with its reason); anything else fails with a coded error.
 */
export async function retryingStep<T>(t: BulkTarget, action: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return retrying(fn, {
    ...policy(t, signal),
    retryable: (e) => retryable(statusOf(e)),
    giveUp: (e) => {
      const err = searchIndexError(e, `${action} in index "${t.index}"`, t.facts);
      return err.code === 'SEARCH_INDEX_REQUEST_FAILED' ? new QuarryError('DESTINATION_WRITE_FAILED', err.message, { cause: e, details: err.details }) : err;
    },
  });
}

/** Item failures of a bulk delete, shaped as a client error (status and body) for retries and messages. */
class BulkDeleteFailed extends Error {
  readonly meta: { statusCode: number; body: { error: { type: string; reason: string } } };
  constructor(status: number, type: string, reason: string) {
    super(reason);
    this.meta = { statusCode: status, body: { error: { type, reason } } };
  }
}
