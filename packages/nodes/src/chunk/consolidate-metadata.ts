import type { Element, ElementMetadata } from '@quarry/core';
import { pyStrip } from './python-text.js';

/** How the metadata values of a chunk's elements become the chunk's value (reference a10). */
export type ConsolidationStrategy =
  | 'FIRST'
  | 'LIST_CONCATENATE'
  | 'LIST_UNIQUE'
  | 'STRING_CONCATENATE'
  | 'DICT_LIST_UNIQUE'
  | 'DROP'
  | 'ENTITIES_CONCATENATE';

const S = (strategy: ConsolidationStrategy, fields: string[]): Array<[string, ConsolidationStrategy]> => fields.map((f) => [f, strategy]);

/**
 * The consolidation strategy of every metadata field the reference library knows. Fields not
 * listed here (ad-hoc fields) are left out of a `CompositeElement`'s metadata, as the library does.
 * `entities` is quarry's addition: NER results are concatenated so an enrichment before the
 * chunker survives it.
 */
export const FIELD_CONSOLIDATION_STRATEGIES: ReadonlyMap<string, ConsolidationStrategy> = new Map([
  ...S('FIRST', [
    'attached_to_filename', 'bcc_recipient', 'cc_recipient', 'data_source', 'email_message_id', 'file_directory',
    'filename', 'filetype', 'last_modified', 'page_name', 'page_number', 'sent_from', 'sent_to', 'signature',
    'subject', 'table_as_cells', 'table_extraction_method', 'url',
  ]),
  ...S('LIST_CONCATENATE', ['emphasized_text_contents', 'emphasized_text_tags', 'link_texts', 'link_urls']),
  ...S('LIST_UNIQUE', ['languages']),
  ...S('STRING_CONCATENATE', ['text_as_html']),
  ...S('DICT_LIST_UNIQUE', ['enrichment_origins']),
  ...S('ENTITIES_CONCATENATE', ['entities']),
  ...S('DROP', [
    'category_depth', 'chunk_index', 'coordinates', 'detection_class_prob', 'detection_origin', 'header_footer_type',
    'image_base64', 'image_mime_type', 'image_path', 'image_url', 'is_continuation', 'is_extracted', 'key_value_pairs',
    'link_start_indexes', 'links', 'max_characters', 'num_carried_over_header_rows', 'orig_elements', 'parent_id',
    'routing', 'routing_score', 'segment_start_seconds', 'segment_end_seconds', 'table_id',
  ]),
]);

/** Fields a chunk never inherits from its source elements. */
export const DROPPED_FIELDS: readonly string[] = [...FIELD_CONSOLIDATION_STRATEGIES].filter(([, s]) => s === 'DROP').map(([f]) => f);

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function cloneValue<T>(v: T): T {
  return typeof v === 'object' && v !== null ? structuredClone(v) : v;
}

function uniqueByJson<T>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((x) => {
    const key = JSON.stringify(x);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function concatLists(values: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (Array.isArray(v)) for (const x of v) out.push(x);
    else out.push(v);
  }
  return out;
}

function consolidate(strategy: ConsolidationStrategy, values: unknown[]): unknown {
  switch (strategy) {
    case 'FIRST':
      return cloneValue(values[0]);
    case 'LIST_CONCATENATE':
      return concatLists(values).map(cloneValue);
    case 'LIST_UNIQUE':
      return [...new Set(concatLists(values))];
    case 'STRING_CONCATENATE':
      return values.map((v) => pyStrip(String(v))).join(' ');
    case 'DICT_LIST_UNIQUE': {
      if (values.every(Array.isArray)) return uniqueByJson(concatLists(values)).map(cloneValue);
      const merged: Record<string, unknown[]> = {};
      for (const v of values) {
        if (typeof v !== 'object' || v === null) continue;
        for (const [k, list] of Object.entries(v as Record<string, unknown>)) {
          merged[k] = uniqueByJson([...(merged[k] ?? []), ...(Array.isArray(list) ? list : [list])]).map(cloneValue);
        }
      }
      return merged;
    }
    case 'ENTITIES_CONCATENATE': {
      const items: unknown[] = [];
      const relationships: unknown[] = [];
      for (const v of values as Array<{ items?: unknown[]; relationships?: unknown[] }>) {
        if (Array.isArray(v?.items)) items.push(...v.items);
        if (Array.isArray(v?.relationships)) relationships.push(...v.relationships);
      }
      return { items: uniqueByJson(items).map(cloneValue), relationships: uniqueByJson(relationships).map(cloneValue) };
    }
    case 'DROP':
      return undefined;
  }
}

/**
 * The metadata of a chunk made of `elements` (the reference `_Chunker._consolidated_metadata`):
 * every known field with a value on at least one element, consolidated by its strategy.
 */
export function consolidateMetadata(elements: readonly Element[]): ElementMetadata {
  const values = new Map<string, unknown[]>();
  for (const el of elements) {
    const metadata = el.metadata;
    for (const field in metadata) {
      const v = metadata[field];
      if (!present(v)) continue;
      const list = values.get(field);
      if (list) list.push(v);
      else values.set(field, [v]);
    }
  }
  const out: ElementMetadata = {};
  for (const [field, list] of values) {
    const strategy = FIELD_CONSOLIDATION_STRATEGIES.get(field);
    if (strategy === undefined || strategy === 'DROP') continue;
    out[field] = consolidate(strategy, list);
  }
  return out;
}

/**
 * A table chunk's base metadata (the reference `_TableChunker._metadata`): a deep copy of the
 * table's metadata, ad-hoc fields included, without the fields chunks never inherit.
 */
export function tableChunkBaseMetadata(table: Element): ElementMetadata {
  const kept: ElementMetadata = {};
  for (const [field, v] of Object.entries(table.metadata)) {
    if (!present(v) || FIELD_CONSOLIDATION_STRATEGIES.get(field) === 'DROP') continue;
    kept[field] = v;
  }
  return structuredClone(kept);
}

function withoutOrigElements(el: Element): Element {
  const { orig_elements: _dropped, ...metadata } = el.metadata;
  return { ...el, metadata };
}

/**
 * The `orig_elements` of a chunk: copies of its source elements whose own `orig_elements` are
 * cleared, so re-chunking chunks never nests them.
 */
export function origElementsFor(elements: readonly Element[]): Element[] {
  return elements.map(withoutOrigElements);
}

/** `orig_elements` of a table's chunks: one deep copy of the table, its `orig_elements` cleared. */
export function origTableFor(table: Element): Element[] {
  return [structuredClone(withoutOrigElements(table))];
}
