import { createHash } from 'node:crypto';
import { flattenObject, type JsonObject } from './flatten.js';

/** One value as `unstructured-ingest` writes it with Python's `str()`; lists and objects as JSON instead of a repr. */
function render(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v === null) return 'None';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return JSON.stringify(v);
}

/**
 * The text of one search hit, as `unstructured-ingest`'s downloader writes its `.txt` file: the `_source`
 * flattened with `_` joins (lists kept), one value per line in document order. Scalars print as
 * Python's `str()` does (`True`, `False`, `None`); a list prints as JSON (`["a", "b"]` becomes
 * `["a","b"]`) where `unstructured-ingest` prints a Python repr (`['a', 'b']`).
 */
export function sourceText(source: JsonObject): string {
  return Object.values(flattenObject(source, '_')).map(render).join('\n');
}

/** The file name stem of a hit: `{index}-{_id}`, plus `-{sha256(fields)[:8]}` when fields are selected (as `unstructured-ingest`). */
export function hitStem(index: string, id: string, fields: readonly string[]): string {
  const base = `${index}-${id}`;
  if (fields.length === 0) return base;
  return `${base}-${createHash('sha256').update(fields.join(',')).digest('hex').slice(0, 8)}`;
}
