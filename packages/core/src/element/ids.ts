import { randomUuid } from './random-uuid.js';
import type { Element } from './types.js';

// node:crypto is fetched when an id is first made: an ES import of it builds its whole namespace
// (Web Crypto included) in every process that loads the element model, ids or not.
const crypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

/**
 * `unstructured`'s deterministic element id:
 * `sha256(f"{filename}{text}{page_number}{seq}")[:32]`, where a missing value renders as `None`.
 */
export function hashElementId(filename: string | undefined, text: string, pageNumber: number | undefined, seq: number): string {
  const f = filename ?? 'None';
  const p = pageNumber === undefined ? 'None' : String(pageNumber);
  // The one-shot hash: a third cheaper than a Hash object per element, over the same UTF-8 bytes.
  return crypto().hash('sha256', `${f}${text}${p}${seq}`, 'hex').slice(0, 32);
}

// Metadata fields that name another element of the document by its id.
const LINK_FIELDS = ['parent_id', 'continues_table_id'] as const;

/**
 * Assigns element ids in place and remaps the links between elements (`parent_id`, and
 * `continues_table_id` of a table continued from the page before) to the new ids.
 *
 * - `unique: true` (the spec default): UUID v4 ids.
 * - `unique: false`: the deterministic hash of {@link hashElementId}, where `seq` counts elements per
 *   `page_number` value across the document (`unstructured`'s partitioners' rule).
 */
export function assignElementIds(elements: Element[], options: { unique: boolean }): Element[] {
  // Most documents link nothing (a PDF's tables continued across pages are rare): no map of old ids then.
  const linked = elements.some((el) => LINK_FIELDS.some((field) => typeof el.metadata[field] === 'string'));
  const remap = linked ? new Map<string, string>() : undefined;
  const perPage = new Map<string, number>();
  for (const el of elements) {
    let id: string;
    if (options.unique) id = randomUuid();
    else {
      const key = String(el.metadata.page_number);
      const seq = perPage.get(key) ?? 0;
      perPage.set(key, seq + 1);
      const name = el.metadata.filename === undefined ? undefined : basename(el.metadata.filename);
      id = hashElementId(name, el.text, el.metadata.page_number, seq);
    }
    if (remap && el.element_id) remap.set(el.element_id, id);
    el.element_id = id;
  }
  if (!remap) return elements;
  for (const el of elements) {
    for (const field of LINK_FIELDS) {
      const p = el.metadata[field];
      if (typeof p !== 'string') continue;
      const mapped = remap.get(p);
      if (mapped) el.metadata[field] = mapped;
    }
  }
  return elements;
}

function basename(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i < 0 ? path : path.slice(i + 1);
}
