/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** A nested object (not a list, not null): what flattening descends into. */
export function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Flattens nested objects into one level, joining keys with `separator`, as `unstructured-ingest`'s
 * `flatten_dict`: `{coordinates: {points}}` becomes `{'coordinates-points': …}` with `-`. Lists are
 * kept as they are (their objects are not flattened); an empty object contributes no key.
 *
 * @example
 * ```ts
 * flattenObject({ data_source: { record_locator: { protocol: 'file' } } }, '-');
 * // { 'data_source-record_locator-protocol': 'file' }
 * ```
 */
export function flattenObject(value: JsonObject, separator: string, prefix = '', out: JsonObject = {}): JsonObject {
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const name = prefix ? `${prefix}${separator}${key}` : key;
    if (isPlainObject(v)) flattenObject(v, separator, name, out);
    else out[name] = v;
  }
  return out;
}
