import type { Element } from '@quarry/core';

const BODY_TYPES = ['UncategorizedText', 'NarrativeText', 'ListItem', 'Table', 'FigureCaption', 'CheckBox'];

/**
 * Which element types may sit under which (`unstructured`'s `HIERARCHY_RULE_SET`): body text under
 * a Title, Titles and body text under a Header.
 */
export const HIERARCHY_RULES: Readonly<Record<string, readonly string[]>> = {
  Title: BODY_TYPES,
  Header: ['Title', ...BODY_TYPES],
};

/**
 * Sets `metadata.parent_id` from element order, type and `category_depth`, as `unstructured`'s
 * `set_element_hierarchy` does: an element's parent is the nearest open element of the same type
 * with a smaller depth, or of a type whose rule lists this element's type. Elements that already
 * have a `parent_id` are left alone. Mutates and returns `elements`.
 */
export function setElementHierarchy(elements: Element[], rules: Readonly<Record<string, readonly string[]>> = HIERARCHY_RULES): Element[] {
  const stack: Element[] = [];
  for (const el of elements) {
    if (el.metadata.parent_id !== undefined) continue;
    const depth = el.metadata.category_depth ?? 0;
    let parentId: string | undefined;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const topDepth = top.metadata.category_depth ?? 0;
      if ((top.type === el.type && topDepth < depth) || (top.type !== el.type && rules[top.type]?.includes(el.type))) {
        parentId = top.element_id;
        break;
      }
      stack.pop();
    }
    if (parentId !== undefined) el.metadata.parent_id = parentId;
    stack.push(el);
  }
  return elements;
}
