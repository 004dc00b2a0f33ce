import { elementToJSON, encodeOrigElements, type Element } from '@quarry/core';
import { documentId } from './document-id.js';
import { flattenObject, type JsonObject } from './flatten.js';

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
 * Stages one element as the reference stager does: `_id` is `uuid5(element_id + record_id)`, `_source`
 * holds `element_id`, `embeddings`, `text`, `type`, `record_id` and `metadata` flattened with `-`
 * (lists kept). Metadata fields the index does not map are left out and counted in `dropped` (SPEC.md:
 * "a metadata field to be stored needs a matching schema field"). Chunks' `orig_elements` are stored
 * in the reference's compressed string form.
 */
export function searchDocument(el: Element, recordId: string, storable: StorableFields, dropped: Map<string, number>): SearchDocument {
  const json = elementToJSON(el);
  const meta: JsonObject = { ...json.metadata };
  if (Array.isArray(meta.orig_elements)) meta.orig_elements = encodeOrigElements(meta.orig_elements as Element[]);
  const flat = flattenObject(meta, '-');
  const metadata: JsonObject = {};
  for (const [k, v] of Object.entries(flat)) {
    if (storable.metadata.has(k)) metadata[k] = v;
    else dropped.set(`metadata.${k}`, (dropped.get(`metadata.${k}`) ?? 0) + 1);
  }
  const source: JsonObject = { element_id: el.element_id };
  if (el.embeddings) {
    if (storable.embeddings) source.embeddings = el.embeddings;
    else dropped.set('embeddings', (dropped.get('embeddings') ?? 0) + 1);
  }
  source.text = el.text;
  source.type = el.type;
  source.record_id = recordId;
  source.metadata = metadata;
  return { id: documentId(el.element_id, recordId), source };
}
