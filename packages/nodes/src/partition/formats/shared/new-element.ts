import type { Element, ElementMetadata, ElementType } from '@quarry/core';

// node:crypto is fetched, not imported: an ES import builds its whole namespace, Web Crypto
// included, before a partition process's first document.
const { randomUUID } = process.getBuiltinModule('node:crypto');

/**
 * Creates an element with a temporary unique `element_id` (the partition node assigns the final
 * ids and remaps `parent_id`s that point at these).
 */
export function newElement(type: ElementType, text: string, metadata: ElementMetadata = {}): Element {
  return { element_id: randomUUID(), type, text, metadata };
}
