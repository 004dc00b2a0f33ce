import { z } from 'zod';

/** Default size of one bulk request body, as `unstructured-ingest`'s uploader (`batch_size_bytes`). */
export const DEFAULT_BATCH_SIZE_BYTES = 15_000_000;

const nonEmpty = z.string().min(1);

/**
 * Config of the search-index connector (`type: 'search_index'`, alias `elasticsearch`), for both the
 * source and the destination. It accepts the Unstructured workflow API's connector create body config
 * `{hosts, search_api_key, index_name}` and every option of the batch ingestion client.
 *
 * One authentication form at most: an API key (`search_api_key` in its Encoded form, or with
 * `api_key_id` the id and key pair, encoded for you), `username` + `password` (user `elastic` when only
 * a password is given, as for cloud deployments), or `bearer_auth`; none for a cluster without security.
 */
export const searchIndexConfig = z
  .strictObject({
    hosts: z
      .union([nonEmpty, z.array(nonEmpty).min(1)])
      .transform((h) => (typeof h === 'string' ? [h] : h))
      .optional()
      .describe('cluster URLs (`https://host:9200`); a bare `host:port` means http'),
    cloud_id: nonEmpty.optional().describe('cloud deployment id; used instead of hosts to reach the cluster'),
    index_name: nonEmpty.describe('the index to write to or read from'),
    search_api_key: nonEmpty.optional().describe('API key in its Encoded form (Base64 of "id:key"), or the key with api_key_id'),
    es_api_key: nonEmpty.optional().describe('alias of search_api_key (the platform field name)'),
    api_key_id: nonEmpty.optional().describe('API key id: with search_api_key holding the key, the pair is encoded as Base64("id:key")'),
    username: nonEmpty.optional().describe('basic authentication user (default "elastic" when only a password is given)'),
    password: nonEmpty.optional().describe('basic authentication password'),
    bearer_auth: nonEmpty.optional().describe('bearer token (Authorization: Bearer)'),
    ca_certs: nonEmpty.optional().describe('path of a PEM certificate authority file to trust'),
    ssl_assert_fingerprint: nonEmpty.optional().describe('SHA-256 fingerprint of the cluster certificate (hex, colons optional)'),
    fields: z.array(nonEmpty).default([]).describe('source: `_source` fields to read; empty reads every field'),
    batch_size: z.number().int().min(1).max(10_000).default(100).describe('source: hits per search page'),
    batch_size_bytes: z.number().int().min(1024).default(DEFAULT_BATCH_SIZE_BYTES).describe('destination: maximum bytes of one bulk request body'),
    num_threads: z.number().int().min(1).max(64).default(4).describe('destination: bulk requests in flight at once'),
    max_retries: z.number().int().min(0).max(20).default(6).describe('destination: retries of a bulk request (or its items) answered 429 or 5xx'),
    retry_initial_ms: z.number().int().min(1).max(60_000).default(500).describe('destination: first back-off delay; it doubles on each retry (with jitter)'),
    retry_max_ms: z.number().int().min(1).max(300_000).default(30_000).describe('destination: longest back-off delay'),
    request_timeout_ms: z.number().int().min(1).default(120_000).describe('timeout of one HTTP request to the cluster'),
  })
  .superRefine((c, ctx) => {
    if (!c.hosts && !c.cloud_id) ctx.addIssue({ code: 'custom', path: ['hosts'], message: 'give hosts or cloud_id' });
    if (c.search_api_key && c.es_api_key) ctx.addIssue({ code: 'custom', path: ['es_api_key'], message: 'give search_api_key or es_api_key, not both' });
    const apiKey = c.search_api_key ?? c.es_api_key;
    if (c.api_key_id && !apiKey) ctx.addIssue({ code: 'custom', path: ['api_key_id'], message: 'api_key_id needs the key in search_api_key' });
    if (c.username && !c.password) ctx.addIssue({ code: 'custom', path: ['password'], message: 'username needs a password' });
    const forms = [apiKey ? 'search_api_key' : '', c.password ? 'username/password' : '', c.bearer_auth ? 'bearer_auth' : ''].filter(Boolean);
    if (forms.length > 1) ctx.addIssue({ code: 'custom', path: [], message: `give one authentication form, not ${forms.join(' and ')}` });
    if (c.ssl_assert_fingerprint && !/^([0-9a-fA-F]{2}:?){31}[0-9a-fA-F]{2}$/.test(c.ssl_assert_fingerprint)) {
      ctx.addIssue({ code: 'custom', path: ['ssl_assert_fingerprint'], message: 'expected a SHA-256 fingerprint: 64 hex digits, colons optional' });
    }
  });

/** Parsed search-index config, defaults applied. */
export type SearchIndexConfig = z.output<typeof searchIndexConfig>;

/** Connector type string of the Unstructured workflow API. */
export const SEARCH_INDEX_TYPE = 'search_index';
/** Alias accepted for the same connector (the platform's name). */
export const ELASTICSEARCH_TYPE_ALIAS = 'elasticsearch';
