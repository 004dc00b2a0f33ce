import { randomUUID } from 'node:crypto';
import type { Element, ElementMetadata, ElementType } from '@quarry/core';

/**
 * Creates an element with a temporary unique `element_id` (the partition node assigns the final
 * ids and remaps `parent_id`s that point at these).
 */
export function newElement(type: ElementType, text: string, metadata: ElementMetadata = {}): Element {
  return { element_id: randomUUID(), type, text, metadata };
}
