import type { Element, QuarryError } from '@quarry/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSearchIndexDestination, searchIndexDestination, type SearchIndexDestination } from '../../src/search-index/search-index-destination.js';
import { documentId } from '../../src/search-index/document-id.js';
import { indexMappings } from '../../src/search-index/mapping.js';
import { conformanceDocument, conformanceElements, testDestinationConformance } from '@quarry/connectors/testing';
import { ES_TARGET_KINDS, countOf, rowsOf, startTarget, type EsTarget } from '../support/es-target.js';
import { captureLogger, failureOf, parseConfig } from '../support.js';

const signal = new AbortController().signal;

function configFor(target: EsTarget, index: string, extra: Record<string, unknown> = {}) {
  return parseConfig(searchIndexDestination, { hosts: [target.url], index_name: index, ...(target.apiKey ? { search_api_key: target.apiKey } : {}), ...extra });
}

async function destinationFor(
  target: EsTarget,
  index: string,
  extra: Record<string, unknown> = {},
  logger = captureLogger().logger,
): Promise<SearchIndexDestination> {
  return createSearchIndexDestination(configFor(target, index, extra), { logger, signal });
}

/** Element JSON as the conformance suite compares it, rebuilt from a stored row. */
function rowAsElement(row: Record<string, unknown>): Record<string, unknown> {
  return { element_id: row.element_id, type: row.type, text: row.text, ...(row.embeddings ? { embeddings: row.embeddings } : {}), metadata: row.metadata };
}

for (const kind of ES_TARGET_KINDS) {
  describe(`search index destination (${kind})`, () => {
    let target: EsTarget;
    beforeAll(async () => {
      target = await startTarget(kind);
    });
    afterAll(async () => target.stop());

    testDestinationConformance<{ index: string }>(
      `search_index (${kind})`,
      async () => {
        const index = target.indexName();
        return { destination: await destinationFor(target, index), target: { index }, cleanup: () => target.dropIndex(index) };
      },
      async ({ index }, recordId) => (await rowsOf(target, index, recordId)).map(rowAsElement),
      { exactJSON: false },
    );

    describe('mapping and records', () => {
      let index: string;
      beforeEach(() => {
        index = target.indexName();
      });
      afterEach(async () => target.dropIndex(index));

      it('creates a missing index with the SPEC.md mapping and the plan dims', async () => {
        const dest = await destinationFor(target, index);
        await dest.prepare!({ nodes: [{ name: 'e', type: 'embed', subtype: 'x', settings: {} }], embeddingDimensions: 4 });
        const mapping = (await target.admin.indices.getMapping({ index }))[index]!.mappings.properties!;
        expect(mapping.element_id).toMatchObject({ type: 'keyword' });
        expect(mapping.record_id).toMatchObject({ type: 'text', fields: { keyword: { type: 'keyword' } } });
        expect(mapping.type).toMatchObject({ type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } });
        expect(mapping.text).toMatchObject({ type: 'text' });
        expect(mapping.embeddings).toMatchObject({ type: 'dense_vector', dims: 4, index: true, similarity: 'cosine' });
        const meta = (mapping.metadata as { properties: Record<string, { type?: string }> }).properties;
        expect(meta['coordinates-points']?.type).toBe('float');
        expect(meta['coordinates-layout_width']?.type).toBe('long');
        expect(meta['data_source-record_locator-protocol']?.type).toBe('keyword');
        expect(meta.page_number?.type).toBe('integer');
        expect(meta.is_extracted?.type).toBe('boolean');
        await dest.close!();
      });

      it('makes the index at the first write without embeddings when the plan does not embed', async () => {
        const dest = await destinationFor(target, index);
        await dest.prepare!({ nodes: [] });
        expect(await target.admin.indices.exists({ index })).toBe(false);
        await dest.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 2) }, { signal });
        const mapping = (await target.admin.indices.getMapping({ index }))[index]!.mappings.properties!;
        expect(mapping.embeddings).toBeUndefined();
        expect(mapping.element_id).toMatchObject({ type: 'keyword' });
        await dest.close!();
      });

      it('writes each element as the reference stager: uuid5 ids, record_id, flattened metadata with lists kept', async () => {
        const dest = await destinationFor(target, index);
        await dest.prepare!({ nodes: [], embeddingDimensions: 3 });
        const el: Element = {
          element_id: 'e1',
          type: 'Title',
          text: 'Hello',
          embeddings: [0.5, 0.25, -1],
          metadata: {
            filename: 'a.pdf',
            languages: ['eng', 'fra'],
            page_number: 2,
            coordinates: {
              points: [
                [0, 0],
                [0, 5],
                [9, 5],
                [9, 0],
              ],
              system: 'PixelSpace',
              layout_width: 100,
              layout_height: 200,
            },
            data_source: { url: 'file:///a.pdf', record_locator: { protocol: 'file', remote_file_path: '/a.pdf' } },
            entities: { items: [{ entity: 'Ada', type: 'PERSON' }], relationships: [{ from: 'Ada', relationship: 'works_for', to: 'X' }] },
          },
        };
        await dest.write({ document: conformanceDocument('dir/a.pdf'), elements: [el] }, { signal });
        await dest.close!();
        await target.admin.indices.refresh({ index });
        const got = await target.admin.get<Record<string, unknown>>({ index, id: documentId('e1', 'dir/a.pdf') });
        expect(got._source).toEqual({
          element_id: 'e1',
          embeddings: [0.5, 0.25, -1],
          text: 'Hello',
          type: 'Title',
          record_id: 'dir/a.pdf',
          metadata: {
            filename: 'a.pdf',
            languages: ['eng', 'fra'],
            page_number: 2,
            'coordinates-points': [
              [0, 0],
              [0, 5],
              [9, 5],
              [9, 0],
            ],
            'coordinates-system': 'PixelSpace',
            'coordinates-layout_width': 100,
            'coordinates-layout_height': 200,
            'data_source-url': 'file:///a.pdf',
            'data_source-record_locator-protocol': 'file',
            'data_source-record_locator-remote_file_path': '/a.pdf',
            'entities-items': [{ entity: 'Ada', type: 'PERSON' }],
            'entities-relationships': [{ from: 'Ada', relationship: 'works_for', to: 'X' }],
          },
        });
      });

      it('replaces exactly one record: other records, including ids that share a prefix, keep their rows', async () => {
        const dest = await destinationFor(target, index);
        await dest.prepare!({ nodes: [] });
        for (const id of ['report.pdf', 'a/report.pdf', 'report.pdf.bak'])
          await dest.write({ document: conformanceDocument(id), elements: conformanceElements(id, 3) }, { signal });
        await dest.write({ document: conformanceDocument('report.pdf'), elements: conformanceElements('report.pdf', 1, 'v2') }, { signal });
        expect((await rowsOf(target, index, 'report.pdf')).map((r) => r.element_id)).toEqual(['v2-report_pdf-0']);
        expect(await rowsOf(target, index, 'a/report.pdf')).toHaveLength(3);
        expect(await rowsOf(target, index, 'report.pdf.bak')).toHaveLength(3);
        await dest.close!();
      });
    });

    describe('caller-created schema', () => {
      let index: string;
      beforeEach(() => {
        index = target.indexName();
      });
      afterEach(async () => target.dropIndex(index));

      it('fails before writing when dims differ, naming both numbers', async () => {
        await target.admin.indices.create({ index, mappings: indexMappings(8) as never });
        const dest = await destinationFor(target, index);
        const e = await failureOf(dest.prepare!({ nodes: [], embeddingDimensions: 4 }));
        expect(e.code).toBe('SEARCH_INDEX_SCHEMA_MISMATCH');
        expect(e.message).toMatch(/dims 8 .* 4 dimensions/);
        expect(e.details).toMatchObject({ index_dims: 8, model_dims: 4 });
        await dest.close!();
      });

      it('fails when the similarity is not cosine', async () => {
        const m = indexMappings(4);
        (m.properties!.embeddings as { similarity: string }).similarity = 'l2_norm';
        await target.admin.indices.create({ index, mappings: m as never });
        const dest = await destinationFor(target, index);
        const e = await failureOf(dest.prepare!({ nodes: [], embeddingDimensions: 4 }));
        expect(e.code).toBe('SEARCH_INDEX_SCHEMA_MISMATCH');
        expect(e.message).toContain('similarity "l2_norm"');
        await dest.close!();
      });

      it('stores only the metadata fields the schema maps, and counts and logs the rest', async () => {
        // The SPEC.md sample schema: record_id is text without a keyword subfield.
        await target.admin.indices.create({
          index,
          mappings: {
            properties: {
              element_id: { type: 'keyword' },
              record_id: { type: 'text' },
              type: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
              text: { type: 'text' },
              metadata: { properties: { filename: { type: 'keyword' }, page_number: { type: 'integer' } } },
            },
          },
        });
        const { logger, records } = captureLogger();
        const dest = await destinationFor(target, index, {}, logger);
        await dest.prepare!({ nodes: [] });
        await dest.write({ document: conformanceDocument('x/a.txt'), elements: conformanceElements('x/a.txt', 3) }, { signal });
        await dest.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 2) }, { signal });
        // A re-write replaces exactly "a.txt" although record_id is analysed text ("x/a.txt" shares its tokens).
        await dest.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 1, 'v2') }, { signal });
        expect(dest.droppedFields()).toEqual({
          'metadata.filetype': 6,
          'metadata.languages': 6,
          'metadata.data_source-url': 6,
          'metadata.data_source-record_locator-protocol': 6,
          'metadata.data_source-record_locator-remote_file_path': 6,
        });
        await dest.close!();
        const warned = records.filter((r) => r.level === 'warn').map((r) => r.fields?.field);
        expect(warned.sort()).toEqual(Object.keys(dest.droppedFields()).sort());
        const r = await target.admin.search<Record<string, unknown>>({ index, size: 100, query: { match_all: {} } });
        const rows = r.hits.hits.map((h) => h._source!);
        expect(rows).toHaveLength(4);
        expect(rows.filter((x) => x.record_id === 'a.txt').map((x) => x.element_id)).toEqual(['v2-a_txt-0']);
        for (const row of rows) expect(Object.keys(row.metadata as object).sort()).toEqual(['filename', 'page_number']);
      });

      it('finds long record ids when the keyword subfield has ignore_above', async () => {
        const m = indexMappings();
        m.properties!.record_id = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 20 } } };
        await target.admin.indices.create({ index, mappings: m as never });
        const dest = await destinationFor(target, index);
        await dest.prepare!({ nodes: [] });
        const long = 'a-very-long-directory-name/with-a-long-file-name.txt';
        await dest.write({ document: conformanceDocument(long), elements: conformanceElements(long, 3) }, { signal });
        await dest.write({ document: conformanceDocument(long), elements: conformanceElements(long, 2, 'v2') }, { signal });
        await dest.close!();
        expect(await countOf(target, index)).toBe(2);
      });
    });
  });
}

describe('search index destination: retries and failures (fake)', () => {
  let target: EsTarget;
  let index: string;
  beforeEach(async () => {
    target = await startTarget('fake');
    index = target.indexName();
  });
  afterEach(async () => target.stop());

  const fast = { retry_initial_ms: 5, retry_max_ms: 20 };

  it('retries a bulk request answered 429 as a whole, and loses nothing', async () => {
    const dest = await destinationFor(target, index, fast);
    await dest.prepare!({ nodes: [] });
    await dest.write({ document: conformanceDocument('first.txt'), elements: conformanceElements('first.txt', 1) }, { signal });
    target.fake!.failBulkRequest(target.fake!.bulkCount + 1, 429);
    target.fake!.failBulkRequest(target.fake!.bulkCount + 2, 503);
    await dest.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 5) }, { signal });
    expect(await rowsOf(target, index, 'a.txt')).toHaveLength(5);
    await dest.close!();
  });

  it('retries only the items rejected with 429 inside a bulk response', async () => {
    const dest = await destinationFor(target, index, fast);
    await dest.prepare!({ nodes: [] });
    await dest.write({ document: conformanceDocument('first.txt'), elements: conformanceElements('first.txt', 1) }, { signal });
    const n = target.fake!.bulkCount + 1;
    target.fake!.rejectBulkItems(n, [1, 3], 429);
    target.fake!.rejectBulkItems(n + 1, [0], 429);
    await dest.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 6) }, { signal });
    const bulks = target.fake!.requests.filter((r) => r.path.endsWith('/_bulk')).slice(-3);
    expect(bulks.map((b) => b.body.trim().split('\n').length / 2)).toEqual([6, 2, 1]);
    expect((await rowsOf(target, index, 'a.txt')).map((r) => r.element_id).sort()).toEqual(
      conformanceElements('a.txt', 6)
        .map((e) => e.element_id)
        .sort(),
    );
    await dest.close!();
  });

  it('gives up after max_retries with a coded error and leaves no partial record', async () => {
    const dest = await destinationFor(target, index, { ...fast, max_retries: 2 });
    await dest.prepare!({ nodes: [] });
    await dest.write({ document: conformanceDocument('first.txt'), elements: conformanceElements('first.txt', 1) }, { signal });
    const n = target.fake!.bulkCount;
    for (let i = 1; i <= 3; i++) target.fake!.rejectBulkItems(n + i, [0], 429);
    const e = await failureOf(dest.write({ document: conformanceDocument('a.txt'), elements: conformanceElements('a.txt', 3) }, { signal }));
    expect(e.code).toBe('DESTINATION_WRITE_FAILED');
    expect(e.message).toContain('still rejected after 2 retries');
    expect(await rowsOf(target, index, 'a.txt')).toEqual([]);
    await dest.close!();
  });

  it('fails one document on a mapping error (wrong dims), listing the item errors, and writes the others', async () => {
    const dest = await destinationFor(target, index, fast);
    await dest.prepare!({ nodes: [], embeddingDimensions: 3 });
    const good = conformanceElements('good.txt', 2).map((e) => ({ ...e, embeddings: [1, 2, 3] }));
    const bad = conformanceElements('bad.txt', 3).map((e, i) => ({ ...e, embeddings: i === 1 ? [1, 2] : [1, 2, 3] }));
    const results = await Promise.allSettled([
      dest.write({ document: conformanceDocument('good.txt'), elements: good }, { signal }),
      dest.write({ document: conformanceDocument('bad.txt'), elements: bad }, { signal }),
    ]);
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status).toBe('rejected');
    const e = (results[1] as PromiseRejectedResult).reason as QuarryError;
    expect(e.code).toBe('DESTINATION_WRITE_FAILED');
    expect(e.message).toMatch(
      /rejected 1 of 3 elements of "bad.txt": 400 document_parsing_exception: .*different number of dimensions \[2\] than defined in the mapping \[3\]/,
    );
    expect(e.details.item_errors).toHaveLength(1);
    expect(await rowsOf(target, index, 'good.txt')).toHaveLength(2);
    expect(await rowsOf(target, index, 'bad.txt')).toEqual([]);
    await dest.close!();
  });

  it('sizes bulk requests in bytes', async () => {
    const dest = await destinationFor(target, index, { batch_size_bytes: 2048 });
    await dest.prepare!({ nodes: [] });
    await dest.write({ document: conformanceDocument('big.txt'), elements: conformanceElements('big.txt', 40) }, { signal });
    const bulks = target.fake!.requests.filter((r) => r.path.endsWith('/_bulk'));
    expect(bulks.length).toBeGreaterThan(3);
    for (const b of bulks) expect(Buffer.byteLength(b.body)).toBeLessThanOrEqual(2048);
    expect(await rowsOf(target, index, 'big.txt')).toHaveLength(40);
    await dest.close!();
  });

  /** Requests of a kind since `from`: row lookups, bulk index requests, bulk delete requests. */
  function sent(from: number): { lookups: number; indexes: number; deletes: number } {
    const reqs = target.fake!.requests.slice(from);
    return {
      lookups: reqs.filter((r) => r.path.endsWith('/_search')).length,
      indexes: reqs.filter((r) => r.path.endsWith('/_bulk') && r.body.includes('{"index"')).length,
      deletes: reqs.filter((r) => r.path.endsWith('/_delete_by_query') || (r.path.endsWith('/_bulk') && r.body.includes('{"delete"'))).length,
    };
  }

  it('batches concurrent writes: one lookup, one bulk index and one delete for documents that arrive together', async () => {
    // The index exists before this destination's job (an earlier job made it and wrote the records).
    const ids = Array.from({ length: 20 }, (_, i) => `doc-${i}.txt`);
    const earlier = await destinationFor(target, index);
    await earlier.prepare!({ nodes: [], embeddingDimensions: 3 });
    await Promise.all(ids.map((id) => earlier.write({ document: conformanceDocument(id), elements: conformanceElements(id, 2) }, { signal })));
    await earlier.close!();
    const dest = await destinationFor(target, index);
    await dest.prepare!({ nodes: [] });
    const before = target.fake!.requests.length;
    await Promise.all(ids.map((id) => dest.write({ document: conformanceDocument(id), elements: conformanceElements(id, 3, 'v2') }, { signal })));
    expect(sent(before)).toEqual({ lookups: 1, indexes: 1, deletes: 1 });
    expect(await countOf(target, index)).toBe(60);
    await dest.close!();
  });

  it('sends no lookups or deletes into an index it has just created, except for a record it wrote before', async () => {
    const dest = await destinationFor(target, index);
    await dest.prepare!({ nodes: [] });
    const ids = Array.from({ length: 20 }, (_, i) => `doc-${i}.txt`);
    await Promise.all(ids.map((id) => dest.write({ document: conformanceDocument(id), elements: conformanceElements(id, 2) }, { signal })));
    expect(sent(0)).toEqual({ lookups: 0, indexes: 1, deletes: 0 });
    // doc-3 again, with one element of another version: its two earlier rows go.
    const before = target.fake!.requests.length;
    await dest.write({ document: conformanceDocument('doc-3.txt'), elements: conformanceElements('doc-3.txt', 1, 'v2') }, { signal });
    expect(sent(before)).toEqual({ lookups: 1, indexes: 1, deletes: 1 });
    expect(await rowsOf(target, index, 'doc-3.txt')).toHaveLength(1);
    expect(await countOf(target, index)).toBe(39);
    await dest.close!();
  });

  it('looks up rows before every write when other writers share the index, even one it created', async () => {
    const dest = await destinationFor(target, index);
    await dest.prepare!({ nodes: [], sharedWriters: true });
    const ids = Array.from({ length: 5 }, (_, i) => `doc-${i}.txt`);
    await Promise.all(ids.map((id) => dest.write({ document: conformanceDocument(id), elements: conformanceElements(id, 2) }, { signal })));
    // Another writer's rows could be there: the lookup runs, and finds nothing to delete.
    expect(sent(0)).toMatchObject({ lookups: 1, indexes: 1, deletes: 0 });
    expect(await countOf(target, index)).toBe(10);
    await dest.close!();
  });

  it('reports an unreachable cluster at prepare with the auth form and without the secret', async () => {
    const dest = await createSearchIndexDestination(
      parseConfig(searchIndexDestination, {
        hosts: ['http://127.0.0.1:9'],
        index_name: 'x',
        username: 'ingest',
        password: 'hunter2-secret',
        request_timeout_ms: 2000,
      }),
      { logger: captureLogger().logger, signal },
    );
    const e = await failureOf(dest.prepare!({ nodes: [] }));
    expect(e.code).toBe('SEARCH_INDEX_UNREACHABLE');
    expect(e.message).toContain('auth form basic');
    expect(e.message).not.toContain('hunter2-secret');
    await dest.close!();
  });

  it('reports rejected credentials with the auth form and without the secret', async () => {
    const dest = await destinationFor(target, index, { search_api_key: 'd3Jvbmc6a2V5LXRoYXQtaXMtd3Jvbmc=' });
    const e = await failureOf(dest.prepare!({ nodes: [] }));
    expect(e.code).toBe('SEARCH_INDEX_AUTH_FAILED');
    expect(e.message).toContain('auth form api_key');
    expect(e.message).not.toContain('d3Jvbmc6a2V5LXRoYXQtaXMtd3Jvbmc=');
    await dest.close!();
  });
});
