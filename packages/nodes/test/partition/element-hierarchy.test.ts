import { describe, expect, it } from 'vitest';
import type { Element, ElementType } from '@quarry/core';
import { setElementHierarchy } from '../../src/partition/element-hierarchy.js';

const el = (id: string, type: ElementType, depth?: number, parent?: string): Element => ({
  element_id: id,
  type,
  text: id,
  metadata: { ...(depth === undefined ? {} : { category_depth: depth }), ...(parent ? { parent_id: parent } : {}) },
});

const parents = (els: Element[]) => Object.fromEntries(setElementHierarchy(els).map((e) => [e.element_id, e.metadata.parent_id]));

describe('setElementHierarchy', () => {
  it('nests body text under titles and deeper titles under shallower ones', () => {
    expect(
      parents([el('h1', 'Title', 0), el('p1', 'NarrativeText'), el('h2', 'Title', 1), el('li', 'ListItem', 1), el('h1b', 'Title', 0), el('t', 'Table')]),
    ).toEqual({
      h1: undefined,
      p1: 'h1',
      h2: 'h1',
      li: 'h2',
      h1b: undefined,
      t: 'h1b',
    });
  });

  it('nests deeper list items under shallower ones and titles under headers', () => {
    expect(parents([el('hd', 'Header'), el('t', 'Title', 0), el('a', 'ListItem', 1), el('b', 'ListItem', 2), el('c', 'ListItem', 1)])).toEqual({
      hd: undefined,
      t: 'hd',
      a: 't',
      b: 'a',
      c: 't',
    });
  });

  it('leaves a parent_id that is already set, and types outside the rules unparented', () => {
    expect(parents([el('t', 'Title', 0), el('x', 'NarrativeText', undefined, 'elsewhere'), el('c', 'CodeSnippet'), el('p', 'NarrativeText')])).toEqual({
      t: undefined,
      x: 'elsewhere',
      c: undefined,
      p: undefined,
    });
  });
});
