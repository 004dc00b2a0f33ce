import type { Element, ElementMetadata, ElementType } from '@quarry/core';
import { randomUuid } from '@quarry/core/element';

/**
 * Creates an element with a temporary unique `element_id` (the partition node assigns the final
 * ids and remaps `parent_id`s that point at these).
 */
export function newElement(type: ElementType, text: string, metadata: ElementMetadata = {}): Element {
  return { element_id: randomUuid(), type, text, metadata };
}
