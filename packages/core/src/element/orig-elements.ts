import { quarryError } from '../errors.js';
import { elementToJSON, elementsFromJSON } from './json.js';
import type { Element } from './types.js';

// node:zlib is fetched when orig_elements are first packed or read, not by every process that
// loads the element model (a partition process never packs them).
const zlib = (): typeof import('node:zlib') => process.getBuiltinModule('node:zlib');

/** Upper bound on a decoded `orig_elements` payload, against decompression bombs. */
const MAX_DECODED_BYTES = 256 * 1024 * 1024;

/**
 * Encodes elements in `unstructured`'s compressed `orig_elements` form:
 * `base64(zlib(json.dumps(elements, sort_keys=True)))`.
 */
export function encodeOrigElements(elements: Element[]): string {
  const json = stableStringify(elements.map(elementToJSON));
  return zlib().deflateSync(Buffer.from(json, 'utf8')).toString('base64');
}

/** Decodes the compressed `orig_elements` string form (zlib, or gzip as some tools write it). */
export function decodeOrigElements(encoded: string): Element[] {
  let raw: Buffer;
  try {
    raw = zlib().inflateSync(Buffer.from(encoded, 'base64'), { maxOutputLength: MAX_DECODED_BYTES, finishFlush: 2 });
  } catch (e) {
    throw quarryError('ELEMENT_INVALID', 'metadata.orig_elements is not valid zlib+base64 element JSON', { cause: e });
  }
  return elementsFromJSON(JSON.parse(raw.toString('utf8')), { source: 'metadata.orig_elements' });
}

/** Returns a chunk's source elements whichever form `orig_elements` is stored in. */
export function origElementsOf(el: Element): Element[] | undefined {
  const o = el.metadata.orig_elements;
  if (o === undefined) return undefined;
  return typeof o === 'string' ? decodeOrigElements(o) : o;
}

/** JSON with object keys sorted and Python's `json.dumps` separators (`", "`, `": "`). */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return pyJson(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${pyJson(k)}: ${stableStringify(v)}`).join(', ')}}`;
}

// Python's json.dumps escapes non-ASCII by default (ensure_ascii=True).
function pyJson(v: unknown): string {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
