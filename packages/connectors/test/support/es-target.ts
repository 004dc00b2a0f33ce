import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { encodeApiKey } from '../../src/search-index/auth.js';
import { FakeElasticsearch, type FakeElasticsearchOptions } from './fake-elasticsearch.js';

/** A real cluster to run the search-index suites against, when set: `QUARRY_ES_URL` (+ `QUARRY_ES_API_KEY`, Encoded form). */
export const REAL_ES_URL = process.env.QUARRY_ES_URL;
/** Its API key, if the cluster needs one. */
export const REAL_ES_API_KEY = process.env.QUARRY_ES_API_KEY;

/** The API key the fake cluster accepts in the tests (Encoded form of `quarry-test:secret-key-0123`). */
export const FAKE_API_KEY = encodeApiKey('quarry-test', 'secret-key-0123');

/** A cluster under test: the fake, or a real one. */
export interface EsTarget {
  kind: 'fake' | 'real';
  url: string;
  apiKey?: string;
  /** Present for the fake: faults, request log, stored state. */
  fake?: FakeElasticsearch;
  /** A client for setting up and reading back. */
  admin: Client;
  /** A fresh index name (the real cluster is shared, so names never repeat). */
  indexName(prefix?: string): string;
  /** Deletes an index, ignoring a missing one. */
  dropIndex(name: string): Promise<void>;
  stop(): Promise<void>;
}

/** The targets to run a suite against: always the fake; the real cluster too when configured. */
export const ES_TARGET_KINDS: Array<'fake' | 'real'> = REAL_ES_URL ? ['fake', 'real'] : ['fake'];

if (!REAL_ES_URL) {
  console.info('search-index: QUARRY_ES_URL is not set; the conformance suites run against the loopback fake only');
}

/** Starts (or connects to) a target. */
export async function startTarget(kind: 'fake' | 'real', options: FakeElasticsearchOptions = {}): Promise<EsTarget> {
  let fake: FakeElasticsearch | undefined;
  let url: string;
  let apiKey: string | undefined;
  if (kind === 'fake') {
    fake = await new FakeElasticsearch({ credentials: { apiKeys: [FAKE_API_KEY] }, ...options }).start();
    url = fake.url;
    apiKey = FAKE_API_KEY;
  } else {
    url = REAL_ES_URL!;
    apiKey = REAL_ES_API_KEY;
  }
  const admin = new Client({ node: url, ...(apiKey ? { auth: { apiKey } } : {}) });
  const run = randomBytes(4).toString('hex');
  let n = 0;
  return {
    kind,
    url,
    ...(apiKey ? { apiKey } : {}),
    ...(fake ? { fake } : {}),
    admin,
    indexName: (prefix = 'quarry-test') => `${prefix}-${run}-${++n}`,
    dropIndex: async (name) => {
      await admin.indices.delete({ index: name }, { ignore: [404] });
    },
    stop: async () => {
      await admin.close();
      await fake?.stop();
    },
  };
}

/** The stored `_source` of every row of one record, read after a refresh. */
export async function rowsOf(target: EsTarget, index: string, recordId: string): Promise<Array<Record<string, unknown>>> {
  if (!(await target.admin.indices.exists({ index }))) return [];
  await target.admin.indices.refresh({ index });
  const r = await target.admin.search<Record<string, unknown>>({ index, size: 10_000, query: { term: { 'record_id.keyword': recordId } } });
  return r.hits.hits.map((h) => h._source!);
}

/** Number of documents of an index, after a refresh. */
export async function countOf(target: EsTarget, index: string): Promise<number> {
  await target.admin.indices.refresh({ index });
  return (await target.admin.count({ index })).count;
}
