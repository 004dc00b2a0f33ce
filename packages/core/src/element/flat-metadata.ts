import type { Element } from './types.js';

/** A metadata value a vector store accepts: a scalar or a list of scalars. */
export type FlatMetadataValue = string | number | boolean | string[] | number[] | boolean[];

/** Large base64 fields left out of flat metadata: they would be copied into every stored chunk. */
const LEFT_OUT = new Set(['orig_elements', 'image_base64']);

/**
 * An element's identity and metadata as one flat record, for frameworks whose stores take only
 * scalars and lists of scalars (LangChain, LlamaIndex): `element_id`, `type`, then every metadata
 * field; nested objects are flattened with `_` (`data_source.url` -> `data_source_url`), lists of
 * objects become JSON text, and `orig_elements` and `image_base64` are left out.
 *
 * @example
 * ```ts
 * flatElementMetadata(element); // { element_id: '…', type: 'Title', filename: 'a.pdf', page_number: 1, languages: ['eng'] }
 * ```
 */
export function flatElementMetadata(element: Element): Record<string, FlatMetadataValue> {
  const out: Record<string, FlatMetadataValue> = { element_id: element.element_id, type: element.type };
  for (const [key, value] of Object.entries(element.metadata)) {
    if (!LEFT_OUT.has(key)) flattenInto(out, key, value);
  }
  return out;
}

function flattenInto(out: Record<string, FlatMetadataValue>, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  else if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'string')) out[key] = value as string[];
    else if (value.every((v) => typeof v === 'number')) out[key] = value as number[];
    else if (value.every((v) => typeof v === 'boolean')) out[key] = value as boolean[];
    else out[key] = JSON.stringify(value);
  } else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flattenInto(out, `${key}_${k}`, v);
  }
}
