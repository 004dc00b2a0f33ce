import { quarryError } from '../errors.js';
import { ELEMENT_TYPES, ELEMENT_TYPE_ALIASES, type Element, type ElementMetadata, type ElementType } from './types.js';

const CANONICAL = new Set<string>(ELEMENT_TYPES);

/**
 * Maps a type name from element JSON onto a canonical {@link ElementType}, accepting
 * `unstructured`'s aliases (`Paragraph`, `Section-header`, `Picture`, ...). Returns
 * `undefined` for an unknown name.
 */
export function canonicalElementType(name: string): ElementType | undefined {
  if (CANONICAL.has(name)) return name as ElementType;
  return ELEMENT_TYPE_ALIASES[name];
}

/** Options of {@link elementFromJSON}. */
export interface ElementFromJSONOptions {
  /** Where the object came from, for error messages (a file name or JSON pointer). */
  source?: string;
}

/**
 * Reads one element from its JSON object form. Aliased type names are mapped; an unknown type, a
 * missing `text` or a non-object `metadata` throws `ELEMENT_INVALID` naming the field.
 */
export function elementFromJSON(value: unknown, options: ElementFromJSONOptions = {}): Element {
  const where = options.source ? ` (${options.source})` : '';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw quarryError('ELEMENT_INVALID', `element must be a JSON object${where}`);
  }
  const o = value as Record<string, unknown>;
  if (typeof o.type !== 'string') throw quarryError('ELEMENT_INVALID', `element "type" must be a string${where}`);
  const type = canonicalElementType(o.type);
  if (!type) throw quarryError('ELEMENT_INVALID', `unknown element type "${o.type}"${where}`, { details: { type: o.type } });
  const text = o.text ?? '';
  if (typeof text !== 'string') throw quarryError('ELEMENT_INVALID', `element "text" must be a string${where}`);
  const metadata = o.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw quarryError('ELEMENT_INVALID', `element "metadata" must be an object${where}`);
  }
  const id = o.element_id ?? o.id;
  const el: Element = {
    element_id: typeof id === 'string' ? id : '',
    type,
    text,
    metadata: { ...(metadata as ElementMetadata) },
  };
  if (Array.isArray(el.metadata.orig_elements)) {
    el.metadata.orig_elements = el.metadata.orig_elements.map((c, i) => elementFromJSON(c, { source: `${options.source ?? ''}/metadata/orig_elements/${i}` }));
  }
  if (Array.isArray(o.embeddings)) el.embeddings = o.embeddings.map(Number);
  if (type === 'CheckBox') el.checked = o.checked === true;
  return el;
}

/** Reads an element array (`unstructured` JSON file form). */
export function elementsFromJSON(value: unknown, options: ElementFromJSONOptions = {}): Element[] {
  if (!Array.isArray(value)) throw quarryError('ELEMENT_INVALID', `element JSON must be an array${options.source ? ` (${options.source})` : ''}`);
  return value.map((v, i) => elementFromJSON(v, { source: `${options.source ?? ''}/${i}` }));
}

/** True for the values sparse element JSON leaves out: `undefined`, `null`, `[]` and `{}`. */
export function isEmptyJsonValue(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

/** Drops `undefined`, `null`, `[]` and `{}` values, as `unstructured`'s sparse JSON does. */
export function sparseMetadata(metadata: ElementMetadata): ElementMetadata {
  const out: ElementMetadata = {};
  // Keys, not entries: no pair array per field of every element of a long document.
  for (const k of Object.keys(metadata) as (keyof ElementMetadata)[]) {
    const v = metadata[k];
    if (isEmptyJsonValue(v)) continue;
    if (k === 'orig_elements' && Array.isArray(v)) out[k] = (v as Element[]).map(elementToJSON);
    else if (k === 'data_source' && typeof v === 'object') {
      const ds = Object.fromEntries(Object.entries(v as object).filter(([, x]) => !isEmptyJsonValue(x)));
      if (Object.keys(ds).length) out[k] = ds;
    } else out[k] = v;
  }
  return out;
}

/** The JSON object form of an element, with sparse metadata; key order `type, element_id, text, metadata`. */
export function elementToJSON(el: Element): Element {
  const out: Element = { type: el.type, element_id: el.element_id, text: el.text, metadata: sparseMetadata(el.metadata) };
  if (el.type === 'CheckBox') out.checked = el.checked === true;
  if (el.embeddings) out.embeddings = el.embeddings;
  return out;
}
