import { encodeOrigElements, isEmptyJsonValue, type Element, type ElementMetadata } from '@quarry/core';
import { documentId } from './document-id.js';
import { isPlainObject, type JsonObject } from './flatten.js';

/** One element as a search document: its `_id` and `_source`. */
export interface SearchDocument {
  id: string;
  source: JsonObject;
}

/** Which fields the index can hold; the rest is counted in `dropped`. */
export interface StorableFields {
  /** Flattened metadata names the mapping holds. */
  metadata: ReadonlySet<string>;
  /** Whether the mapping has an `embeddings` field. */
  embeddings: boolean;
}

/**
 * Stages one element as `unstructured-ingest`'s stager does: `_id` is `uuid5(element_id + record_id)`, `_source`
 * holds `element_id`, `embeddings`, `text`, `type`, `record_id` and `metadata` flattened with `-`
 * (lists kept). Metadata fields the index does not map are left out and counted in `dropped` (the Unstructured workflow API:
 * "a metadata field to be stored needs a matching schema field"). Chunks' `orig_elements` are stored
 * in `unstructured-ingest`'s compressed string form.
 */
export function searchDocument(el: Element, recordId: string, storable: StorableFields, dropped: Map<string, number>): SearchDocument {
  const source: JsonObject = { element_id: el.element_id };
  if (el.embeddings) {
    if (storable.embeddings) source.embeddings = el.embeddings;
    else dropped.set('embeddings', (dropped.get('embeddings') ?? 0) + 1);
  }
  source.text = el.text;
  source.type = el.type;
  source.record_id = recordId;
  source.metadata = storedMetadata(el.metadata, storable.metadata, dropped);
  return { id: documentId(el.element_id, recordId), source };
}

/**
 * The element's metadata as stored: its sparse JSON form (`elementToJSON`: empty values dropped, at
 * the top and inside `data_source`; `orig_elements` compressed) flattened with `-` joins
 * (`flattenObject`), keeping the names in `stored` and counting the others in `dropped`. One pass
 * with no intermediate objects, and joined names are looked up rather than built: staging runs once
 * per element of every document written.
 */
function storedMetadata(metadata: ElementMetadata, stored: ReadonlySet<string>, dropped: Map<string, number>): JsonObject {
  const out: JsonObject = {};
  const m = metadata as JsonObject;
  for (const key of Object.keys(m)) {
    const v = m[key];
    if (isEmptyJsonValue(v)) continue;
    if (key === 'orig_elements' && Array.isArray(v)) keep(out, key, encodeOrigElements(v as Element[]), stored, dropped);
    // Sparse JSON drops data_source's own empty values too.
    else if (isPlainObject(v)) flattenInto(out, key, v, key === 'data_source', stored, dropped);
    else keep(out, key, v, stored, dropped);
  }
  return out;
}

// A nested object's fields under `prefix`, skipping undefined values (and empty ones with `skipEmpty`).
function flattenInto(out: JsonObject, prefix: string, value: JsonObject, skipEmpty: boolean, stored: ReadonlySet<string>, dropped: Map<string, number>): void {
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined || (skipEmpty && isEmptyJsonValue(v))) continue;
    const name = joinedName(prefix, key);
    if (isPlainObject(v)) flattenInto(out, name, v, false, stored, dropped);
    else keep(out, name, v, stored, dropped);
  }
}

function keep(out: JsonObject, name: string, v: unknown, stored: ReadonlySet<string>, dropped: Map<string, number>): void {
  if (stored.has(name)) out[name] = v;
  else dropped.set(`metadata.${name}`, (dropped.get(`metadata.${name}`) ?? 0) + 1);
}

// `prefix-key`, built once per pair: elements of a job carry the same few nested fields.
const joined = new Map<string, Map<string, string>>();
const MAX_JOINED = 4096;
function joinedName(prefix: string, key: string): string {
  let byKey = joined.get(prefix);
  if (byKey === undefined) {
    if (joined.size >= MAX_JOINED) joined.clear();
    byKey = new Map();
    joined.set(prefix, byKey);
  }
  let name = byKey.get(key);
  if (name === undefined) {
    if (byKey.size >= MAX_JOINED) byKey.clear();
    name = `${prefix}-${key}`;
    byKey.set(key, name);
  }
  return name;
}
