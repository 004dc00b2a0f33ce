import { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeElasticsearch } from './fake-elasticsearch.js';

// The fake's own semantics, checked with the official client and raw HTTP: what the connector's
// tests rely on must behave as Elasticsearch does.
describe('FakeElasticsearch', () => {
  let es: FakeElasticsearch;
  let client: Client;
  beforeAll(async () => {
    es = await new FakeElasticsearch({ credentials: { users: { elastic: 'pw' } }, refreshIntervalMs: 0 }).start();
    client = new Client({ node: es.url, auth: { username: 'elastic', password: 'pw' } });
  });
  afterAll(async () => {
    await client.close();
    await es.stop();
  });

  it('answers with the product header, and 401 security_exception without credentials', async () => {
    const ok = await fetch(es.url, { headers: { authorization: `Basic ${Buffer.from('elastic:pw').toString('base64')}` } });
    expect(ok.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(((await ok.json()) as { version: { number: string } }).version.number).toBe('8.19.2');
    const denied = await fetch(es.url);
    expect(denied.status).toBe(401);
    expect(denied.headers.get('x-elastic-product')).toBe('Elasticsearch');
    expect(((await denied.json()) as { error: { type: string } }).error.type).toBe('security_exception');
  });

  it('refuses to create an index twice', async () => {
    await client.indices.create({ index: 'dup' });
    await expect(client.indices.create({ index: 'dup' })).rejects.toMatchObject({
      meta: { statusCode: 400, body: { error: { type: 'resource_already_exists_exception' } } },
    });
  });

  it('makes writes searchable only after a refresh, and deletes by query only what search sees', async () => {
    await client.indices.create({ index: 'nrt', mappings: { properties: { record_id: { type: 'keyword' } } } });
    await client.bulk({ index: 'nrt', operations: [{ index: { _id: '1' } }, { record_id: 'a' }, { index: { _id: '2' } }, { record_id: 'a' }] });
    expect((await client.count({ index: 'nrt' })).count).toBe(0);
    expect((await client.deleteByQuery({ index: 'nrt', query: { term: { record_id: 'a' } } })).deleted).toBe(0);
    await client.indices.refresh({ index: 'nrt' });
    expect((await client.count({ index: 'nrt' })).count).toBe(2);
    expect((await client.deleteByQuery({ index: 'nrt', query: { term: { record_id: 'a' } }, refresh: true })).deleted).toBe(2);
    expect((await client.count({ index: 'nrt' })).count).toBe(0);
  });

  it('reports per-item mapping errors in a bulk response with errors: true', async () => {
    await client.indices.create({ index: 'typed', mappings: { properties: { n: { type: 'integer' }, v: { type: 'dense_vector', dims: 2 } } } });
    const r = await client.bulk({
      index: 'typed',
      operations: [{ index: { _id: 'ok' } }, { n: 1, v: [1, 0] }, { index: { _id: 'bad' } }, { n: 'x' }, { index: { _id: 'dims' } }, { v: [1, 2, 3] }],
    });
    expect(r.errors).toBe(true);
    expect(r.items.map((i) => i.index?.status)).toEqual([201, 400, 400]);
    expect(r.items[1]!.index!.error!.type).toBe('document_parsing_exception');
    expect(r.items[2]!.index!.error!.reason).toContain('different number of dimensions [3] than defined in the mapping [2]');
  });

  it('pages a point in time with search_after on _shard_doc', async () => {
    await client.bulk({ index: 'pit', refresh: true, operations: Array.from({ length: 5 }, (_, i) => [{ index: { _id: `d${i}` } }, { i }]).flat() });
    const pit = await client.openPointInTime({ index: 'pit', keep_alive: '1m' });
    const seen: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const r = await client.search({
        pit: { id: pit.id, keep_alive: '1m' },
        size: 2,
        sort: [{ _shard_doc: 'asc' }],
        ...(after ? { search_after: after as never } : {}),
      });
      seen.push(...r.hits.hits.map((h) => h._id!));
      if (r.hits.hits.length < 2) break;
      after = r.hits.hits.at(-1)!.sort;
    }
    expect(seen).toEqual(['d0', 'd1', 'd2', 'd3', 'd4']);
    expect((await client.closePointInTime({ id: pit.id })).succeeded).toBe(true);
    await expect(client.search({ pit: { id: pit.id } })).rejects.toMatchObject({ meta: { statusCode: 404 } });
  });
});
