import { defineDestination, QuarryError, type DestinationConnector, type DestinationDefinition, type Logger } from '@quarry/core';
import { BulkWriter } from './bulk-writer.js';
import { createSearchClient, type SearchClient } from './client.js';
import { ELASTICSEARCH_TYPE_ALIAS, SEARCH_INDEX_TYPE, searchIndexConfig, type SearchIndexConfig } from './config.js';
import { searchIndexError, statusOf } from './errors.js';
import { indexMappings, mappingFacts, type IndexMappings, type MappingFacts } from './mapping.js';
import { searchDocument } from './search-document.js';

/** A search-index destination: a destination connector plus what it could not store. */
export interface SearchIndexDestination extends DestinationConnector {
  /**
   * Fields left out because the index does not map them, with how many elements carried each
   * (`metadata.<flattened name>` or `embeddings`). Counted per job; also logged.
   */
  droppedFields(): Record<string, number>;
  /** The client in use (for reading back, or for index administration). */
  readonly searchClient: SearchClient;
}

/**
 * Documents whose writes may be in flight beyond the job's `concurrency`: the bulk writer batches
 * writes across documents, so a few documents at a time would leave every request half empty and
 * the job waiting on round trips. Memory stays bounded: at most this many documents' rows wait.
 */
export const SEARCH_INDEX_WRITE_BEHIND = 64;

/**
 * Creates a search-index destination for a parsed config (used by both registered types).
 * @internal exported for the CLI and tests; engines create it through the registered definition.
 */
export async function createSearchIndexDestination(config: SearchIndexConfig, ctx: { logger: Logger; signal: AbortSignal }): Promise<SearchIndexDestination> {
  const sc = await createSearchClient(config);
  const { client, facts } = sc;
  const index = config.index_name;
  const logger = ctx.logger;
  const dropped = new Map<string, number>();
  const warned = new Set<string>();
  let known: MappingFacts | undefined;
  let planDims: number | undefined;
  /** True when this destination created the index: it may then add the `embeddings` field later. */
  let createdHere = false;
  let settling: Promise<void> | undefined;
  /** Told at prepare: no other writer writes this job's records here meanwhile. */
  let soleWriter = false;

  const writer = new BulkWriter({
    client,
    index,
    facts,
    logger,
    batchSizeBytes: config.batch_size_bytes,
    concurrency: config.num_threads,
    maxRetries: config.max_retries,
    retryInitialMs: config.retry_initial_ms,
    retryMaxMs: config.retry_max_ms,
    lookup: () => known?.lookup ?? { kind: 'term', field: 'record_id.keyword' },
  });

  async function readMapping(): Promise<IndexMappings> {
    try {
      const r = await client.indices.getMapping({ index });
      const entry = r[index] ?? Object.values(r)[0];
      return (entry?.mappings ?? {}) as IndexMappings;
    } catch (e) {
      throw unavailable(e, `reading the mapping of index "${index}"`);
    }
  }

  function unavailable(e: unknown, action: string): QuarryError {
    const err = searchIndexError(e, action, facts, { index });
    return err.code === 'SEARCH_INDEX_REQUEST_FAILED' ? new QuarryError('DESTINATION_UNAVAILABLE', err.message, { cause: e, details: err.details }) : err;
  }

  async function exists(): Promise<boolean> {
    try {
      return await client.indices.exists({ index });
    } catch (e) {
      throw unavailable(e, `checking index "${index}"`);
    }
  }

  /**
   * Creates the index with quarry's mapping, or adopts the one another writer created meanwhile.
   * When this destination is the job's only writer (`prepare` was told no other writers share it),
   * the new index holds nothing but its own rows.
   */
  async function create(dims: number | undefined): Promise<void> {
    const mappings = indexMappings(dims);
    try {
      await client.indices.create({ index, mappings: mappings as never });
      logger.info('search index: created the index', { index, ...(dims ? { dims } : {}) });
      createdHere = true;
      if (soleWriter) writer.indexCreated();
      known = mappingFacts(index, mappings, dims);
    } catch (e) {
      const type = (e as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error?.type;
      if (statusOf(e) === 400 && type === 'resource_already_exists_exception') {
        known = mappingFacts(index, await readMapping(), planDims);
        return;
      }
      throw unavailable(e, `creating index "${index}"`);
    }
  }

  /** Adds `embeddings` to an index this destination created before it saw a vector. */
  async function addEmbeddings(dims: number): Promise<void> {
    const field = indexMappings(dims).properties!.embeddings!;
    try {
      await client.indices.putMapping({ index, properties: { embeddings: field as never } });
    } catch (e) {
      throw unavailable(e, `adding the embeddings field to index "${index}"`);
    }
    known = mappingFacts(index, await readMapping(), dims);
  }

  /** One index check or change at a time; concurrent writes wait for it. */
  function settle(step: () => Promise<void>): Promise<void> {
    settling ??= step().finally(() => {
      settling = undefined;
    });
    return settling;
  }

  /**
   * Makes sure the index exists before the first rows: an index that did not exist at prepare()
   * is created for what the first write carries (with `embeddings` when it has vectors), so the
   * mapping has `embeddings` exactly when records do.
   */
  async function ensureIndex(dims: number | undefined): Promise<void> {
    while (!known) {
      await settle(async () => {
        if (known) return;
        if (await exists()) known = mappingFacts(index, await readMapping(), planDims);
        else await create(dims);
      });
    }
    while (dims !== undefined && known.embeddingDims === undefined && createdHere) {
      await settle(async () => {
        if (known!.embeddingDims === undefined) await addEmbeddings(dims);
      });
    }
  }

  const connector: SearchIndexDestination = {
    searchClient: sc,
    writeBehind: SEARCH_INDEX_WRITE_BEHIND,
    async prepare(plan) {
      planDims = plan.embeddingDimensions;
      soleWriter = plan.sharedWriters !== true;
      known = undefined;
      // A new job: whatever this destination created before may have been written since.
      writer.indexFound();
      if (await exists()) {
        known = mappingFacts(index, await readMapping(), planDims);
        // Rows written by an earlier job may not be searchable yet; the replacements' deletes must see them.
        await writer.refresh();
      } else if (planDims !== undefined) {
        await create(planDims);
      }
      // Otherwise the index is made at the first write, which tells whether records carry vectors.
    },
    async write(flow, { signal }) {
      const recordId = flow.document.record_id;
      if (signal.aborted) {
        throw new QuarryError('JOB_ABORTED', `writing "${recordId}" was cancelled`, { cause: signal.reason, details: { record_id: recordId } });
      }
      if (!known && flow.elements.length === 0 && !(await exists())) return;
      const vector = flow.elements.find((e) => e.embeddings && e.embeddings.length > 0)?.embeddings;
      await ensureIndex(vector?.length ?? planDims);
      const facts = known!;
      const before = new Map(dropped);
      const docs = flow.elements.map((el) =>
        searchDocument(el, recordId, { metadata: facts.metadataFields, embeddings: facts.embeddingDims !== undefined }, dropped),
      );
      for (const [field, n] of dropped) {
        if (warned.has(field) || n === before.get(field)) continue;
        warned.add(field);
        logger.warn('search index: a field is not in the index mapping and is not stored', { index, field, record_id: recordId });
      }
      await writer.write(recordId, docs, signal);
    },
    droppedFields: () => Object.fromEntries(dropped),
    async close() {
      try {
        await writer.drain();
        if (writer.dirty) await writer.refresh();
      } catch (e) {
        logger.warn('search index: final refresh failed', { index, error: (e as Error).message });
      } finally {
        if (dropped.size > 0) logger.info('search index: fields not stored (not in the index mapping)', { index, fields: Object.fromEntries(dropped) });
        await client.close();
      }
    },
  };
  return connector;
}

function definition(type: string): DestinationDefinition<SearchIndexConfig> {
  return defineDestination<SearchIndexConfig>({
    type,
    description: 'an Elasticsearch index: one search document per element, replaced per record',
    config: searchIndexConfig,
    create: (config, ctx) => createSearchIndexDestination(config, ctx),
  });
}

/**
 * Search-index destination (`type: 'search_index'`, the Unstructured workflow API): writes each element as a search
 * document (`element_id`, `record_id`, `type`, `text`, `embeddings`, flattened `metadata`), replacing
 * a record's previous rows on every write. `prepare()` creates the index with the Unstructured workflow API's mapping when
 * it does not exist, or checks a caller-created one (dims, similarity, required fields).
 *
 * @example
 * ```ts
 * const job = engine.run(plan, {
 *   source: { type: 'local', config: { path: 'docs' } },
 *   destination: { type: 'search_index', config: { hosts: ['https://es.example:9200'], index_name: 'docs', search_api_key: key } },
 * });
 * ```
 */
export const searchIndexDestination = definition(SEARCH_INDEX_TYPE);

/** The same destination under the platform's type name `elasticsearch`. */
export const elasticsearchDestination = definition(ELASTICSEARCH_TYPE_ALIAS);
