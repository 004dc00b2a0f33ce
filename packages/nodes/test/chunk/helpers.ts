import type { Element, ElementMetadata, ElementType } from '@quarry/core';

let counter = 0;

/** A test element with a predictable id. */
export function el(type: ElementType, text: string, metadata: ElementMetadata = {}): Element {
  counter += 1;
  return { element_id: `e${counter}`, type, text, metadata };
}

/** Texts of elements. */
export function texts(elements: readonly Element[]): string[] {
  return elements.map((e) => e.text);
}
