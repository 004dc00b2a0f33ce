import type { Element } from '@quarry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchIndexDestination, searchIndexDestination, type SearchIndexDestination } from '../../src/search-index/search-index-destination.js';
import { documentId } from '../../src/search-index/document-id.js';
import { conformanceDocument, conformanceElements } from '@quarry/connectors/testing';
import { startTarget, type EsTarget } from '../support/es-target.js';
import type { FakeFault } from '../support/fake-elasticsearch.js';
import { captureLogger, parseConfig } from '../support.js';

/**
 * A replacement fails at each of its requests (refresh, row lookup, bulk index, bulk delete), by an
 * error answer or a dropped connection before or after the request is applied. Before every request
 * and after the failure, the record must have its old version (every old row) or its new version
 * (every new row, new text) in the index; a retry must leave exactly the new version.
 */

const signal = new AbortController().signal;
const RECORD = 'dir/report.txt';

/** The old version: three elements. */
const OLD: Element[] = conformanceElements(RECORD, 3);
/** The new version: two elements of the old one changed in place (same element ids), and two new ones. */
const NEW: Element[] = [...OLD.slice(1).map((e) => ({ ...e, text: `${e.text} (edited)` })), ...conformanceElements(RECORD, 2, 'v2')];
const OTHER = conformanceElements('other.txt', 2);

const idsOf = (els: readonly Element[], recordId = RECORD): string[] => els.map((e) => documentId(e.element_id, recordId));

type Step = 'refresh' | 'lookup' | 'bulk index' | 'bulk delete';
const STEPS: Record<Step, Omit<FakeFault, 'fault' | 'times'>> = {
  refresh: { method: 'GET', path: /\/_refresh$/ },
  lookup: { method: 'POST', path: /\/_search$/ },
  'bulk index': { method: 'POST', path: /\/_bulk$/, body: /"index"/ },
  'bulk delete': { method: 'POST', path: /\/_bulk$/, body: /"delete"/ },
};
const FAULTS: Array<FakeFault['fault']> = [500, 'drop-before', 'drop-after'];

/** How the record's rows are found: `record_id.keyword` terms (quarry's mapping), or a phrase on text-only `record_id`. */
const LOOKUPS = ['term', 'phrase'] as const;

describe('search index destination: a replacement that fails at any step keeps the old or the new version (fake)', () => {
  let target: EsTarget;
  let index: string;
  let dest: SearchIndexDestination;
  beforeEach(async () => {
    target = await startTarget('fake', { refreshIntervalMs: 0 });
    index = target.indexName();
  });
  afterEach(async () => {
    await dest?.close?.();
    await target.stop();
  });

  /** What the record's live rows are (a realtime view, not a searchable one): `_id` to text. */
  function liveRows(): Map<string, string> {
    const rows = new Map<string, string>();
    for (const [id, doc] of target.fake!.indices.get(index)?.live ?? []) {
      if (doc.source.record_id === RECORD) rows.set(id, String(doc.source.text));
    }
    return rows;
  }

  /** Which whole version the record has now: the old one (every old row), the new one (every new row, new text), or neither. */
  function versionsPresent(): { old: boolean; new: boolean } {
    const rows = liveRows();
    return {
      old: idsOf(OLD).every((id) => rows.has(id)),
      new: NEW.every((e) => rows.get(documentId(e.element_id, RECORD)) === e.text),
    };
  }

  async function prepared(lookup: (typeof LOOKUPS)[number]): Promise<void> {
    if (lookup === 'phrase') {
      // The workflow API's sample schema: record_id is analysed text, with no keyword subfield.
      await target.admin.indices.create({
        index,
        mappings: {
          properties: {
            element_id: { type: 'keyword' },
            record_id: { type: 'text' },
            type: { type: 'text' },
            text: { type: 'text' },
            metadata: { properties: {} },
          },
        },
      });
    }
    const config = parseConfig(searchIndexDestination, {
      hosts: [target.url],
      index_name: index,
      search_api_key: target.apiKey,
      max_retries: 1,
      retry_initial_ms: 1,
      retry_max_ms: 2,
    });
    dest = await createSearchIndexDestination(config, { logger: captureLogger().logger, signal });
    await dest.prepare!({ nodes: [] });
    // The old version, written earlier in this job: the replacement refreshes, looks up, indexes, deletes.
    await dest.write({ document: conformanceDocument(RECORD), elements: OLD }, { signal });
    await dest.write({ document: conformanceDocument('other.txt'), elements: OTHER }, { signal });
  }

  const replace = () => dest.write({ document: conformanceDocument(RECORD), elements: NEW }, { signal });

  /** Asserts, before every request the fake receives, that one whole version is there. */
  function watchEveryMoment(): string[] {
    const broken: string[] = [];
    target.fake!.observe((r) => {
      const v = versionsPresent();
      if (!v.old && !v.new) broken.push(`${r.method} ${r.path}`);
    });
    return broken;
  }

  async function expectExactlyNew(): Promise<void> {
    const rows = liveRows();
    expect([...rows.keys()].sort()).toEqual(idsOf(NEW).sort());
    for (const e of NEW) expect(rows.get(documentId(e.element_id, RECORD))).toBe(e.text);
    // The other record was never touched.
    const other = [...(target.fake!.indices.get(index)?.live ?? [])].filter(([, d]) => d.source.record_id === 'other.txt').map(([id]) => id);
    expect(other.sort()).toEqual(idsOf(OTHER, 'other.txt').sort());
  }

  for (const lookup of LOOKUPS) {
    for (const step of Object.keys(STEPS) as Step[]) {
      for (const fault of FAULTS) {
        it(`${lookup} lookup: ${step} fails (${fault})`, async () => {
          await prepared(lookup);
          const broken = watchEveryMoment();
          const injected = target.fake!.inject({ ...STEPS[step], fault, times: 1000 });
          const seenBefore = target.fake!.requests.length;
          await expect(replace()).rejects.toMatchObject({
            code: expect.stringMatching(/^(DESTINATION_WRITE_FAILED|SEARCH_INDEX_UNREACHABLE|SEARCH_INDEX_REQUEST_FAILED)$/),
          });
          // The fault was met (the step happened), and no moment lacked both versions.
          expect(injected.times).toBeLessThan(1000);
          expect(target.fake!.requests.length).toBeGreaterThan(seenBefore);
          expect(broken).toEqual([]);
          const v = versionsPresent();
          expect(v.old || v.new).toBe(true);
          injected.times = 0;
          await replace();
          await expectExactlyNew();
          expect(broken).toEqual([]);
        });
      }
    }

    it(`${lookup} lookup: an element of the new version rejected for good keeps the old version whole, and adds no row`, async () => {
      await prepared(lookup);
      const broken = watchEveryMoment();
      const before = new Map(liveRows());
      // The first new element (an edited one, overwriting an old row) is indexed; the last (a new one) is rejected.
      target.fake!.rejectBulkItems(target.fake!.bulkCount + 1, [NEW.length - 1], 400);
      await expect(replace()).rejects.toMatchObject({ code: 'DESTINATION_WRITE_FAILED' });
      expect(broken).toEqual([]);
      expect(versionsPresent().old).toBe(true);
      // Rows the failed write added are gone: only the old ids remain (edited in place where shared).
      expect([...liveRows().keys()].sort()).toEqual([...before.keys()].sort());
      await replace();
      await expectExactlyNew();
    });
  }

  it('a cancelled job stops waiting between retries at once: its write rejects JOB_ABORTED and the old version stays', async () => {
    await prepared('term');
    const controller = new AbortController();
    const config = parseConfig(searchIndexDestination, {
      hosts: [target.url],
      index_name: index,
      search_api_key: target.apiKey,
      max_retries: 20,
      retry_initial_ms: 60_000,
      retry_max_ms: 300_000,
    });
    const job = await createSearchIndexDestination(config, { logger: captureLogger().logger, signal: controller.signal });
    await job.prepare!({ nodes: [] });
    const injected = target.fake!.inject({ ...STEPS['bulk index'], fault: 503, times: 1000 });
    const bulkBefore = target.fake!.requests.filter((r) => r.path.endsWith('/_bulk')).length;
    const write = job.write({ document: conformanceDocument(RECORD), elements: NEW }, { signal: controller.signal });
    // The first bulk request was answered 503: the writer now waits at least 30 s before the next.
    while (target.fake!.requests.filter((r) => r.path.endsWith('/_bulk')).length === bulkBefore) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    controller.abort(new Error('job cancelled'));
    await expect(write).rejects.toMatchObject({ code: 'JOB_ABORTED' });
    expect(Date.now() - started).toBeLessThan(10_000);
    injected.times = 0;
    expect(versionsPresent().old).toBe(true);
    await job.close!();
  });

  it('a first write into an index the destination created sends no lookup and no delete', async () => {
    const config = parseConfig(searchIndexDestination, { hosts: [target.url], index_name: index, search_api_key: target.apiKey });
    dest = await createSearchIndexDestination(config, { logger: captureLogger().logger, signal });
    await dest.prepare!({ nodes: [] });
    await dest.write({ document: conformanceDocument(RECORD), elements: OLD }, { signal });
    const paths = target.fake!.requests.map((r) => `${r.method} ${r.path}${/"delete"/.test(r.body) ? ' delete' : ''}`);
    expect(paths.filter((p) => /_search|_delete_by_query| delete$/.test(p))).toEqual([]);
  });
});
