import type { Element, ElementMetadata } from '@quarry/core';
import { pyStrip } from './python-text.js';

/** How the metadata values of a chunk's elements become the chunk's value. */
export type ConsolidationStrategy = 'FIRST' | 'LIST_CONCATENATE' | 'LIST_UNIQUE' | 'STRING_CONCATENATE' | 'DICT_LIST_UNIQUE' | 'DROP' | 'ENTITIES_CONCATENATE';

const S = (strategy: ConsolidationStrategy, fields: string[]): Array<[string, ConsolidationStrategy]> => fields.map((f) => [f, strategy]);

/**
 * The consolidation strategy of every metadata field `unstructured` knows. Fields not
 * listed here (ad-hoc fields) are left out of a `CompositeElement`'s metadata, as the library does.
 * `entities` is quarry's addition: NER results are concatenated so an enrichment before the
 * chunker survives it.
 */
export const FIELD_CONSOLIDATION_STRATEGIES: ReadonlyMap<string, ConsolidationStrategy> = new Map([
  ...S('FIRST', [
    'attached_to_filename',
    'bcc_recipient',
    'cc_recipient',
    'data_source',
    'email_message_id',
    'file_directory',
    'filename',
    'filetype',
    'last_modified',
    'page_name',
    'page_number',
    'sent_from',
    'sent_to',
    'signature',
    'subject',
    'table_as_cells',
    'table_extraction_method',
    'url',
  ]),
  ...S('LIST_CONCATENATE', ['emphasized_text_contents', 'emphasized_text_tags', 'link_texts', 'link_urls']),
  ...S('LIST_UNIQUE', ['languages']),
  ...S('STRING_CONCATENATE', ['text_as_html']),
  ...S('DICT_LIST_UNIQUE', ['enrichment_origins']),
  ...S('ENTITIES_CONCATENATE', ['entities']),
  ...S('DROP', [
    'category_depth',
    'chunk_index',
    'coordinates',
    'detection_class_prob',
    'detection_origin',
    'header_footer_type',
    'image_base64',
    'image_mime_type',
    'image_path',
    'image_url',
    'is_continuation',
    'is_extracted',
    'key_value_pairs',
    'link_start_indexes',
    'links',
    'max_characters',
    'num_carried_over_header_rows',
    'orig_elements',
    'parent_id',
    'routing',
    'routing_score',
    'segment_start_seconds',
    'segment_end_seconds',
    'table_id',
  ]),
]);

/** Fields a chunk never inherits from its source elements. */
export const DROPPED_FIELDS: readonly string[] = [...FIELD_CONSOLIDATION_STRATEGIES].filter(([, s]) => s === 'DROP').map(([f]) => f);

// Null-prototype lookup: a property read per field, no Map hashing and no inherited names.
const STRATEGY_OF: Readonly<Record<string, ConsolidationStrategy | undefined>> = Object.assign(
  Object.create(null) as Record<string, ConsolidationStrategy>,
  Object.fromEntries(FIELD_CONSOLIDATION_STRATEGIES),
);

function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * A deep copy of a metadata value. Metadata is JSON-shaped (strings, numbers, arrays, plain
 * objects); those are copied directly, far faster than `structuredClone`, which stays the fallback
 * for anything else (a `Date`, a typed array).
 */
export function copyMetadataValue<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyMetadataValue(v[i] as unknown);
    return out as T;
  }
  if (!isPlainObject(v)) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k in v) out[k] = copyMetadataValue(v[k]);
  return out as T;
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

// The dict-merging strategies, applied to every element's value of one field at once.
function consolidateDicts(strategy: ConsolidationStrategy, values: unknown[]): unknown {
  if (strategy === 'ENTITIES_CONCATENATE') {
    const items: unknown[] = [];
    const relationships: unknown[] = [];
    for (const v of values as Array<{ items?: unknown[]; relationships?: unknown[] }>) {
      if (Array.isArray(v?.items)) items.push(...v.items);
      if (Array.isArray(v?.relationships)) relationships.push(...v.relationships);
    }
    return { items: uniqueByJson(items).map(copyMetadataValue), relationships: uniqueByJson(relationships).map(copyMetadataValue) };
  }
  // DICT_LIST_UNIQUE: lists are concatenated, dicts of lists merged key by key, without duplicates.
  if (values.every(Array.isArray)) return uniqueByJson(concatLists(values)).map(copyMetadataValue);
  const merged: Record<string, unknown[]> = {};
  for (const v of values) {
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, list] of Object.entries(v as Record<string, unknown>)) {
      merged[k] = uniqueByJson([...(merged[k] ?? []), ...(Array.isArray(list) ? list : [list])]).map(copyMetadataValue);
    }
  }
  return merged;
}

// `list` (a chunk's own list, undefined at first) followed by the items of a list value (or a lone
// value) it does not hold yet. Lists are made at their exact size (a list grown by `push` holds
// room for 17, and every chunk keeps its own).
function withUnique(list: unknown[] | undefined, v: unknown): unknown[] {
  const items = Array.isArray(v) ? v : [v];
  let out = list;
  for (let i = 0; i < items.length; i++) {
    const x: unknown = items[i];
    if (out === undefined) out = [x];
    else if (!out.includes(x)) out = out.concat([x]);
  }
  return out ?? [];
}

// `list` followed by copies of a list value's items (or of a lone value).
function withCopies(list: unknown[] | undefined, v: unknown): unknown[] {
  const copies = Array.isArray(v) ? v.map(copyMetadataValue) : [copyMetadataValue(v)];
  return list === undefined ? copies : list.concat(copies);
}

/**
 * The metadata of a chunk made of `elements` (`unstructured`'s `_Chunker._consolidated_metadata`):
 * every known field with a value on at least one element, consolidated by its strategy, in the
 * order fields first appear. Values are copies; nothing is shared with the elements.
 *
 * @example
 * ```ts
 * consolidateMetadata([title, paragraph]); // { filename: 'a.pdf', languages: ['eng'], page_number: 1 }
 * ```
 */
export function consolidateMetadata(elements: readonly Element[]): ElementMetadata {
  const out: ElementMetadata = {};
  // The common strategies fold each value into `out` as it comes; the dict-merging ones (rare)
  // gather their values and are consolidated at the end.
  let gathered: Map<string, unknown[]> | undefined;
  // Index loops: `for...of` here allocated an iterator result per element.
  for (let i = 0; i < elements.length; i++) {
    const { metadata } = elements[i] as Element;
    for (const field in metadata) {
      const v = metadata[field];
      if (v === undefined || v === null) continue;
      const strategy = STRATEGY_OF[field];
      if (strategy === undefined) continue;
      const current = out[field];
      switch (strategy) {
        case 'FIRST':
          if (current === undefined) out[field] = copyMetadataValue(v);
          break;
        case 'LIST_UNIQUE':
          out[field] = withUnique(current as unknown[] | undefined, v);
          break;
        case 'LIST_CONCATENATE':
          out[field] = withCopies(current as unknown[] | undefined, v);
          break;
        case 'STRING_CONCATENATE':
          out[field] = current === undefined ? pyStrip(String(v)) : `${current as string} ${pyStrip(String(v))}`;
          break;
        case 'DICT_LIST_UNIQUE':
        case 'ENTITIES_CONCATENATE': {
          gathered ??= new Map();
          const values = gathered.get(field);
          if (values) values.push(v);
          else {
            gathered.set(field, [v]);
            // Claims the key's place in the output order; the value is set below.
            out[field] = null;
          }
          break;
        }
        case 'DROP':
          break;
      }
    }
  }
  if (gathered) for (const [field, values] of gathered) out[field] = consolidateDicts(STRATEGY_OF[field] as ConsolidationStrategy, values);
  return out;
}

/**
 * A table chunk's base metadata (`unstructured`'s `_TableChunker._metadata`): a deep copy of the
 * table's metadata, ad-hoc fields included, without the fields chunks never inherit.
 */
export function tableChunkBaseMetadata(table: Element): ElementMetadata {
  const kept: ElementMetadata = {};
  for (const [field, v] of Object.entries(table.metadata)) {
    if (!present(v) || FIELD_CONSOLIDATION_STRATEGIES.get(field) === 'DROP') continue;
    kept[field] = copyMetadataValue(v);
  }
  return kept;
}

function withoutOrigElements(el: Element): Element {
  const metadata = { ...el.metadata };
  delete metadata.orig_elements;
  return { ...el, metadata };
}

function hasOrigElements(el: Element): boolean {
  return el.metadata.orig_elements !== undefined && el.metadata.orig_elements !== null;
}

/**
 * The `orig_elements` of a chunk: its source elements. As in `unstructured`, an element is
 * shared, not copied, unless it has `orig_elements` of its own (it is a chunk being re-chunked);
 * then a copy without them is used, so orig_elements never nest and the input stays untouched.
 * When no element has any, the result is `elements` itself: pass a list the chunk may keep.
 */
export function origElementsFor(elements: Element[]): Element[] {
  if (!elements.some(hasOrigElements)) return elements;
  return elements.map((el) => (hasOrigElements(el) ? withoutOrigElements(el) : el));
}

/** `orig_elements` of a table's chunks: one deep copy of the table, its `orig_elements` cleared. */
export function origTableFor(table: Element): Element[] {
  return [copyMetadataValue(withoutOrigElements(table))];
}
