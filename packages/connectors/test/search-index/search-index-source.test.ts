import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSearchIndexSource, searchIndexSource } from '../../src/search-index/search-index-source.js';
import { testSourceConformance, type SourceFixture } from '@quarry/connectors/testing';
import { ES_TARGET_KINDS, startTarget, type EsTarget } from '../support/es-target.js';
import { captureLogger, failureOf, listAll, parseConfig } from '../support.js';

const signal = new AbortController().signal;
const enc = new TextEncoder();

/** Text a fixture is stored as: UTF-8 when it is, Base64 otherwise (a search document holds text). */
function bodyOf(content: Uint8Array): string {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(content);
  return Buffer.from(text, 'utf8').equals(Buffer.from(content)) ? text : Buffer.from(content).toString('base64');
}

async function sourceFor(target: EsTarget, index: string, extra: Record<string, unknown> = {}) {
  const config = parseConfig(searchIndexSource, {
    hosts: [target.url],
    index_name: index,
    ...(target.apiKey ? { search_api_key: target.apiKey } : {}),
    ...extra,
  });
  return createSearchIndexSource(config, { logger: captureLogger().logger, signal });
}

for (const kind of ES_TARGET_KINDS) {
  describe(`search index source (${kind})`, () => {
    let target: EsTarget;
    beforeAll(async () => {
      target = await startTarget(kind);
    });
    afterAll(async () => target.stop());

    testSourceConformance(`search_index (${kind})`, async (fixtures: readonly SourceFixture[]) => {
      const index = target.indexName();
      await target.admin.indices.create({ index });
      const put = async (key: string, content: Uint8Array) =>
        target.admin.index({ index, id: key, document: { path: key, body: bodyOf(content) }, refresh: true });
      for (const f of fixtures) await put(f.key, f.content);
      await target.admin.indices.refresh({ index });
      return {
        source: await sourceFor(target, index, { batch_size: 2 }),
        recordIdOf: (key) => `${index}-${key}`,
        expectedBytes: (f) => enc.encode(`${f.key}\n${bodyOf(f.content)}`),
        update: async (key, content) => {
          await put(key, content);
        },
        cleanup: () => target.dropIndex(index),
      };
    });

    describe('documents', () => {
      let index: string;
      beforeEach(async () => {
        index = target.indexName();
        await target.admin.indices.create({ index });
      });
      afterEach(async () => target.dropIndex(index));

      it('describes each hit: record_id, .txt file name, text/plain, version and record locator', async () => {
        await target.admin.index({
          index,
          id: 'doc1',
          document: { title: 'Hello', nested: { a: 1, b: { c: true } }, tags: ['x', 'y'], none: null },
          refresh: true,
        });
        const source = await sourceFor(target, index);
        const [doc, ...rest] = await listAll(source);
        expect(rest).toEqual([]);
        expect(doc).toMatchObject({
          record_id: `${index}-doc1`,
          filename: `${index}-doc1.txt`,
          filetype: 'text/plain',
          version: '1',
          data_source: { url: `${target.url}/${index}`, version: '1', record_locator: { hosts: [target.url], index_name: index, document_id: 'doc1' } },
        });
        expect(new TextDecoder().decode(await doc!.read())).toBe('Hello\n1\nTrue\n["x","y"]\nNone');
        await source.close!();
      });

      it('reads only the selected fields and names the file with their hash, as the reference', async () => {
        await target.admin.index({ index, id: 'd', document: { title: 'T', body: 'B', secret: 'S' }, refresh: true });
        const source = await sourceFor(target, index, { fields: ['title', 'body'] });
        const [doc] = await listAll(source);
        expect(doc!.record_id).toBe(`${index}-d-cef3a36a`);
        expect(new TextDecoder().decode(await doc!.read())).toBe('T\nB');
        await source.close!();
      });

      it('pages with a point in time and search_after, and closes the point in time', async () => {
        const ops = Array.from({ length: 25 }, (_, i) => [{ index: { _index: index, _id: `d${i}` } }, { n: i }]).flat();
        await target.admin.bulk({ operations: ops, refresh: true });
        const seen = target.fake?.requests.length ?? 0;
        const source = await sourceFor(target, index, { batch_size: 10 });
        const docs = await listAll(source);
        expect(docs.map((d) => d.record_id).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `${index}-d${i}`).sort());
        if (target.fake) {
          const searches = target.fake.requests.slice(seen).filter((r) => r.path === '/_search');
          expect(searches).toHaveLength(3);
          const bodies = searches.map((s) => JSON.parse(s.body) as Record<string, unknown>);
          expect(bodies[0]).toMatchObject({ sort: [{ _shard_doc: 'asc' }], size: 10, version: true });
          expect(bodies[0]!.search_after).toBeUndefined();
          expect(bodies[1]!.search_after).toEqual([9]);
          expect(bodies[0]!._source).toBeUndefined();
          expect(target.fake.requests.some((r) => r.method === 'POST' && r.path === `/${index}/_pit` && r.query.get('keep_alive') === '1m')).toBe(true);
          expect(target.fake.pits.size).toBe(0);
        }
        await source.close!();
      });

      it('does not see documents written after the listing started (point in time)', async () => {
        await target.admin.bulk({
          operations: [{ index: { _index: index, _id: 'a' } }, { n: 1 }, { index: { _index: index, _id: 'b' } }, { n: 2 }],
          refresh: true,
        });
        const source = await sourceFor(target, index, { batch_size: 1 });
        const seen: string[] = [];
        for await (const d of source.list(signal)) {
          seen.push(d.record_id);
          if (seen.length === 1) await target.admin.index({ index, id: 'c', document: { n: 3 }, refresh: true });
        }
        expect(seen.sort()).toEqual([`${index}-a`, `${index}-b`]);
        await source.close!();
      });

      it('closes the point in time when the consumer stops early', async () => {
        await target.admin.bulk({
          operations: [{ index: { _index: index, _id: 'a' } }, { n: 1 }, { index: { _index: index, _id: 'b' } }, { n: 2 }],
          refresh: true,
        });
        const source = await sourceFor(target, index, { batch_size: 1 });
        for await (const _ of source.list(signal)) break;
        if (target.fake) expect(target.fake.pits.size).toBe(0);
        await source.close!();
      });

      it('fails with SOURCE_NOT_FOUND for a missing index', async () => {
        const e = await failureOf(sourceFor(target, `${index}-missing`));
        expect(e.code).toBe('SOURCE_NOT_FOUND');
        expect(e.message).toContain(`${index}-missing`);
      });
    });
  });
}
