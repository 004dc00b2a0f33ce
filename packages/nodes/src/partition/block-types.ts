/**
 * `extract_image_block_types` values as element types: kept out of hi_res (which crops those
 * regions) so that enrichment nodes read a plan's settings without loading the PDF engines.
 */
import type { ElementType } from '@quarry/core';
import { ELEMENT_TYPE_ALIASES, ELEMENT_TYPES } from '@quarry/core/element';

const TYPE_BY_LOWER = new Map<string, ElementType>([
  ...ELEMENT_TYPES.map((t) => [t.toLowerCase(), t] as const),
  ...Object.entries(ELEMENT_TYPE_ALIASES).map(([alias, t]) => [alias.toLowerCase(), t] as const),
  ['list', 'ListItem'],
]);

/** `extract_image_block_types` values (any case, `unstructured`'s aliases too) as element types. */
export function blockTypes(values: readonly string[]): Set<ElementType> {
  const out = new Set<ElementType>();
  for (const v of values) {
    const t = TYPE_BY_LOWER.get(v.trim().toLowerCase());
    if (t) out.add(t);
  }
  return out;
}
