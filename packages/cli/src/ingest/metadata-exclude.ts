import type { Element } from '@quarry/core';

/**
 * Removes metadata fields from elements, in place: each path is a top-level field (`coordinates`) or
 * a dotted path into nested objects (`data_source.record_locator`), as `unstructured-ingest`'s
 * `metadata_exclude`. A path that does not exist is ignored.
 */
export function excludeMetadata(elements: Element[], paths: readonly string[]): Element[] {
  if (paths.length === 0) return elements;
  const split = paths.map((p) => p.split('.').filter(Boolean)).filter((p) => p.length > 0);
  for (const el of elements) {
    for (const segs of split) {
      let obj: Record<string, unknown> | undefined = el.metadata as Record<string, unknown>;
      for (const seg of segs.slice(0, -1)) {
        const next: unknown = obj?.[seg];
        obj = typeof next === 'object' && next !== null && !Array.isArray(next) ? (next as Record<string, unknown>) : undefined;
      }
      if (obj) delete obj[segs[segs.length - 1]!];
    }
  }
  return elements;
}
