import { QuarryError } from '@quarry/core';

/** One field of an index mapping. */
export interface FieldMapping {
  type?: string;
  properties?: Record<string, FieldMapping>;
  fields?: Record<string, FieldMapping>;
  dims?: number;
  similarity?: string;
  index?: boolean;
  enabled?: boolean;
  dynamic?: boolean | string;
  ignore_above?: number;
  [key: string]: unknown;
}

/** The `mappings` object of an index. */
export interface IndexMappings {
  dynamic?: boolean | string;
  properties?: Record<string, FieldMapping>;
  [key: string]: unknown;
}

const keyword: FieldMapping = { type: 'keyword' };
const textWithKeyword = (ignoreAbove?: number): FieldMapping => ({
  type: 'text',
  fields: { keyword: { type: 'keyword', ...(ignoreAbove ? { ignore_above: ignoreAbove } : {}) } },
});
const stored: FieldMapping = { type: 'object', enabled: false };

/** Metadata fields and their types exactly as the Unstructured workflow API's table lists them (flattened names). */
export const SPEC_METADATA_MAPPING: Readonly<Record<string, FieldMapping>> = {
  is_extracted: { type: 'boolean' },
  'coordinates-points': { type: 'float' },
  'coordinates-system': textWithKeyword(256),
  'coordinates-layout_width': { type: 'long' },
  'coordinates-layout_height': { type: 'long' },
  filetype: keyword,
  languages: keyword,
  image_mime_type: keyword,
  filename: keyword,
  page_number: { type: 'integer' },
  'data_source-url': keyword,
  'data_source-record_locator-protocol': keyword,
  'data_source-record_locator-remote_file_path': keyword,
  'entities-items': { properties: { entity: textWithKeyword(256), type: textWithKeyword(256) } },
  'entities-relationships': { properties: { from: textWithKeyword(256), relationship: textWithKeyword(256), to: textWithKeyword(256) } },
};

/**
 * The other element metadata fields of the Python library unstructured, mapped when quarry creates the index so that
 * nothing an element carries is dropped. Large opaque values (`orig_elements`, `image_base64`,
 * `table_as_cells`, ...) are kept in `_source` without being indexed.
 */
export const EXTRA_METADATA_MAPPING: Readonly<Record<string, FieldMapping>> = {
  attached_to_filename: keyword,
  bcc_recipient: keyword,
  category_depth: { type: 'integer' },
  cc_recipient: keyword,
  chunk_index: { type: 'integer' },
  'data_source-version': keyword,
  'data_source-date_created': keyword,
  'data_source-date_modified': keyword,
  'data_source-date_processed': keyword,
  'data_source-permissions_data': stored,
  'data_source-record_locator-hosts': keyword,
  'data_source-record_locator-index_name': keyword,
  'data_source-record_locator-document_id': keyword,
  detection_class_prob: { type: 'float' },
  detection_origin: keyword,
  email_message_id: keyword,
  emphasized_text_contents: { type: 'text' },
  emphasized_text_tags: keyword,
  file_directory: keyword,
  header_footer_type: keyword,
  image_base64: { type: 'binary' },
  image_path: keyword,
  image_url: keyword,
  is_continuation: { type: 'boolean' },
  key_value_pairs: stored,
  last_modified: keyword,
  link_start_indexes: { type: 'integer' },
  link_texts: { type: 'text' },
  link_urls: keyword,
  links: stored,
  num_carried_over_header_rows: { type: 'integer' },
  orig_elements: { type: 'binary' },
  page_name: keyword,
  parent_id: keyword,
  routing: keyword,
  routing_score: { type: 'float' },
  segment_end_seconds: { type: 'float' },
  segment_start_seconds: { type: 'float' },
  sent_from: keyword,
  sent_to: keyword,
  signature: { type: 'text' },
  subject: textWithKeyword(256),
  table_extraction_method: keyword,
  table_id: keyword,
  text_as_html: { type: 'text' },
  url: keyword,
};

/**
 * The mappings quarry creates an index with: the Unstructured workflow API's fields outside `metadata` (`record_id` is
 * `text` as the Unstructured workflow API says, plus a `keyword` subfield so that replacing a record deletes exactly its
 * rows), `embeddings` only when the plan embeds, and every metadata field flattened with `-`.
 */
export function indexMappings(embeddingDimensions?: number): IndexMappings {
  return {
    properties: {
      element_id: keyword,
      record_id: { type: 'text', fields: { keyword: { type: 'keyword' } } },
      type: textWithKeyword(256),
      text: { type: 'text' },
      ...(embeddingDimensions ? { embeddings: { type: 'dense_vector', dims: embeddingDimensions, index: true, similarity: 'cosine' } } : {}),
      metadata: { type: 'object', dynamic: false, properties: { ...SPEC_METADATA_MAPPING, ...EXTRA_METADATA_MAPPING } },
    },
  };
}

/** How a record's rows are found for deletion, from the type of `record_id` in the mapping. */
export type RecordIdLookup =
  /**
   * An exact `term` query on a keyword field (`record_id`, or a keyword subfield such as
   * `record_id.keyword`). A keyword field with `ignore_above` does not index longer values: records
   * with a longer id are looked up as for `phrase`.
   */
  | { kind: 'term'; field: string; ignoreAbove?: number }
  /** `record_id` is analysed text only: a `match_phrase` search narrows, then ids are compared exactly. */
  | { kind: 'phrase'; field: string };

/** What a destination learns from an existing index's mapping. */
export interface MappingFacts {
  lookup: RecordIdLookup;
  /** Flattened metadata field names the mapping holds; others are not stored. */
  metadataFields: ReadonlySet<string>;
  /** `dims` of `embeddings`, when mapped as a dense vector. */
  embeddingDims?: number;
}

/**
 * Reads what a destination needs from an index mapping, and checks it can hold the records: the
 * required fields exist, and with embeddings the `embeddings` field is an indexed cosine dense vector
 * of the plan's dimension count. Problems throw `SEARCH_INDEX_SCHEMA_MISMATCH` naming each one.
 */
export function mappingFacts(index: string, mappings: IndexMappings, embeddingDimensions?: number): MappingFacts {
  const props = mappings.properties ?? {};
  const problems: string[] = [];
  for (const required of ['element_id', 'record_id', 'text']) if (!props[required]) problems.push(`field "${required}" is not mapped`);

  let lookup: RecordIdLookup = { kind: 'term', field: 'record_id' };
  const rid = props.record_id;
  if (rid?.type === 'text') {
    const subs = Object.entries(rid.fields ?? {}).filter(([, f]) => f.type === 'keyword');
    // Prefer a subfield that indexes every id; one with ignore_above still serves the shorter ids.
    const sub = subs.find(([, f]) => f.ignore_above === undefined) ?? subs.sort(([, a], [, b]) => (b.ignore_above ?? 0) - (a.ignore_above ?? 0))[0];
    lookup = sub
      ? { kind: 'term', field: `record_id.${sub[0]}`, ...(sub[1].ignore_above === undefined ? {} : { ignoreAbove: sub[1].ignore_above }) }
      : { kind: 'phrase', field: 'record_id' };
  } else if (rid?.type === 'keyword') {
    lookup = { kind: 'term', field: 'record_id', ...(rid.ignore_above === undefined ? {} : { ignoreAbove: rid.ignore_above }) };
  } else if (rid) {
    problems.push(`field "record_id" is mapped as ${rid.type ?? 'an object'}; expected text or keyword`);
  }

  const emb = props.embeddings;
  if (embeddingDimensions !== undefined) {
    if (!emb) problems.push(`field "embeddings" is not mapped; the plan writes ${embeddingDimensions}-dimensional embeddings`);
    else if (emb.type !== 'dense_vector') problems.push(`field "embeddings" is mapped as ${emb.type}; expected dense_vector`);
    else {
      if (emb.dims !== undefined && emb.dims !== embeddingDimensions) {
        problems.push(`field "embeddings" has dims ${emb.dims} but the embedding model produces ${embeddingDimensions} dimensions`);
      }
      if (emb.similarity !== undefined && emb.similarity !== 'cosine')
        problems.push(`field "embeddings" has similarity "${emb.similarity}"; expected "cosine"`);
      if (emb.index === false) problems.push('field "embeddings" has index false; expected index true');
    }
  }
  if (problems.length) {
    throw new QuarryError('SEARCH_INDEX_SCHEMA_MISMATCH', `index "${index}" cannot hold the records: ${problems.join('; ')}`, {
      details: {
        index,
        problems,
        ...(emb?.dims !== undefined ? { index_dims: emb.dims } : {}),
        ...(embeddingDimensions !== undefined ? { model_dims: embeddingDimensions } : {}),
      },
    });
  }
  const meta = props.metadata?.properties ?? {};
  return { lookup, metadataFields: new Set(Object.keys(meta)), ...(emb?.type === 'dense_vector' && emb.dims !== undefined ? { embeddingDims: emb.dims } : {}) };
}
