import { defineSource, type QuarryError, quarryError, type Logger, type SourceConnector, type SourceDefinition, type SourceDocument } from '@quarry/core';
import { createSearchClient, type SearchClient } from './client.js';
import { ELASTICSEARCH_TYPE_ALIAS, SEARCH_INDEX_TYPE, searchIndexConfig, type SearchIndexConfig } from './config.js';
import { searchIndexError } from './errors.js';
import type { estypes } from '@elastic/elasticsearch';
import type { JsonObject } from './flatten.js';
import { hitStem, sourceText } from './source-text.js';

/** How long the cluster keeps the point in time between two pages. */
const KEEP_ALIVE = '1m';

/** A search-index source, with its client. */
export interface SearchIndexSource extends SourceConnector {
  readonly searchClient: SearchClient;
}

function abortedError(signal: AbortSignal): QuarryError {
  return quarryError('JOB_ABORTED', 'search index listing was cancelled', { cause: signal.reason });
}

/**
 * Creates a search-index source for a parsed config (used by both registered types).
 * @internal exported for the CLI and tests; engines create it through the registered definition.
 */
export async function createSearchIndexSource(config: SearchIndexConfig, ctx: { logger: Logger; signal: AbortSignal }): Promise<SearchIndexSource> {
  const sc = await createSearchClient(config);
  const { client, facts, hosts } = sc;
  const index = config.index_name;
  const fields = config.fields;

  async function assertIndex(): Promise<void> {
    let found: boolean;
    try {
      found = await client.indices.exists({ index });
    } catch (e) {
      throw searchIndexError(e, `checking index "${index}"`, facts, { index });
    }
    if (!found) throw quarryError('SOURCE_NOT_FOUND', `index "${index}" not found at ${facts.target}`, { details: { index, target: facts.target } });
  }

  function toDocument(hit: { _id?: string; _source?: unknown; _version?: number }): SourceDocument {
    const id = hit._id ?? '';
    const stem = hitStem(index, id, fields);
    const bytes = new TextEncoder().encode(sourceText((hit._source ?? {}) as JsonObject));
    const version = hit._version === undefined ? undefined : String(hit._version);
    return {
      record_id: stem,
      // An _id may hold a slash; a file name may not.
      filename: `${stem.replace(/\//g, '_')}.txt`,
      filetype: 'text/plain',
      ...(version === undefined ? {} : { version }),
      size: bytes.byteLength,
      data_source: {
        url: `${hosts[0] ?? facts.target}/${index}`,
        ...(version === undefined ? {} : { version }),
        record_locator: { hosts, index_name: index, document_id: id },
      },
      read: async () => bytes,
    };
  }

  await assertIndex();
  const connector: SearchIndexSource = {
    searchClient: sc,
    async *list(signal) {
      const stop = AbortSignal.any([signal, ctx.signal]);
      if (stop.aborted) throw abortedError(stop);
      await assertIndex();
      let pit: string;
      try {
        pit = (await client.openPointInTime({ index, keep_alive: KEEP_ALIVE }, { signal: stop })).id;
      } catch (e) {
        if (stop.aborted) throw abortedError(stop);
        throw searchIndexError(e, `opening a point in time on index "${index}"`, facts, { index });
      }
      try {
        let after: unknown[] | undefined;
        for (;;) {
          if (stop.aborted) throw abortedError(stop);
          let page: estypes.SearchResponse<JsonObject>;
          try {
            page = await client.search(
              {
                pit: { id: pit, keep_alive: KEEP_ALIVE },
                sort: [{ _shard_doc: 'asc' }],
                size: config.batch_size,
                version: true,
                track_total_hits: false,
                query: { match_all: {} },
                // An empty list is not sent: some clusters time out on `_source: []` (`unstructured-ingest`'s CHANGELOG).
                ...(fields.length > 0 ? { _source: fields } : {}),
                ...(after ? { search_after: after as never } : {}),
              },
              { signal: stop },
            );
          } catch (e) {
            if (stop.aborted) throw abortedError(stop);
            throw searchIndexError(e, `reading index "${index}"`, facts, { index });
          }
          if (page.pit_id) pit = page.pit_id;
          const hits = page.hits.hits;
          for (const hit of hits) yield toDocument(hit);
          if (hits.length < config.batch_size) return;
          after = hits[hits.length - 1]!.sort;
        }
      } finally {
        await client
          .closePointInTime({ id: pit })
          .catch((e: unknown) => ctx.logger.debug('search index: closing the point in time failed', { index, error: (e as Error).message }));
      }
    },
    async get(record, signal) {
      const stop = AbortSignal.any([signal, ctx.signal]);
      const locator = record.data_source.record_locator as { document_id?: unknown } | undefined;
      const id = typeof locator?.document_id === 'string' ? locator.document_id : undefined;
      if (id === undefined)
        throw quarryError('INVALID_ARGUMENT', `record "${record.record_id}" has no data_source.record_locator.document_id`, {
          details: { record_id: record.record_id },
        });
      try {
        const hit = await client.get({ index, id, ...(fields.length > 0 ? { _source_includes: fields } : {}) }, { signal: stop });
        return toDocument(hit);
      } catch (e) {
        if (stop.aborted) throw abortedError(stop);
        throw searchIndexError(e, `reading document "${id}" of index "${index}"`, facts, { index, document_id: id });
      }
    },
    async count(signal) {
      try {
        return (await client.count({ index }, { signal: AbortSignal.any([signal, ctx.signal]) })).count;
      } catch (e) {
        throw searchIndexError(e, `counting index "${index}"`, facts, { index });
      }
    },
    async close() {
      await client.close();
    },
  };
  return connector;
}

function definition(type: string): SourceDefinition<SearchIndexConfig> {
  return defineSource<SearchIndexConfig>({
    type,
    description: 'the documents of an Elasticsearch index, one text document per hit',
    config: searchIndexConfig,
    create: (config, ctx) => createSearchIndexSource(config, ctx),
  });
}

/**
 * Search-index source (`type: 'search_index'`): lists every document of an index with a point in
 * time and `search_after` (sorted on `_shard_doc`), closing the point in time at the end. Each hit
 * becomes a `text/plain` document `{index}-{_id}.txt` whose text is the hit's `_source` values, one per
 * line; `version` is the hit's `_version` and `data_source.record_locator` is
 * `{hosts, index_name, document_id}`.
 *
 * @example
 * ```ts
 * const job = engine.run(plan, {
 *   source: { type: 'search_index', config: { hosts: ['https://es.example:9200'], index_name: 'articles', search_api_key: key } },
 *   destination: { type: 'local', config: { path: 'out' } },
 * });
 * ```
 */
export const searchIndexSource = definition(SEARCH_INDEX_TYPE);

/** The same source under the platform's type name `elasticsearch`. */
export const elasticsearchSource = definition(ELASTICSEARCH_TYPE_ALIAS);
