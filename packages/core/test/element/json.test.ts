import { describe, expect, it } from 'vitest';
import { elementFromJSON, elementsFromJSON, elementToJSON, ELEMENT_TYPES, QuarryError } from '../../src/index.js';

describe('element JSON', () => {
  it('maps the reference type aliases onto canonical types', () => {
    const cases: Array<[string, string]> = [
      ['Paragraph', 'NarrativeText'],
      ['Text', 'NarrativeText'],
      ['Abstract', 'NarrativeText'],
      ['Threading', 'NarrativeText'],
      ['BulletedText', 'ListItem'],
      ['List-item', 'ListItem'],
      ['Section-header', 'Title'],
      ['Headline', 'Title'],
      ['Page-header', 'Header'],
      ['Page-footer', 'Footer'],
      ['Footnote', 'Footer'],
      ['Caption', 'FigureCaption'],
      ['Figure', 'Image'],
      ['Picture', 'Image'],
      ['TableChunk', 'TableChunk'],
      ['CompositeElement', 'CompositeElement'],
    ];
    for (const [input, expected] of cases) expect(elementFromJSON({ type: input, text: 'x' }).type).toBe(expected);
  });

  it('accepts every canonical type', () => {
    for (const t of ELEMENT_TYPES) expect(elementFromJSON({ type: t, element_id: 'a', text: '', metadata: {} }).type).toBe(t);
  });

  it('round-trips with sparse metadata and keeps ad-hoc fields', () => {
    const input = {
      type: 'Table',
      element_id: 'abc',
      text: 'a b',
      metadata: {
        text_as_html: '<table><tr><td>a</td></tr></table>',
        languages: ['eng'],
        links: [],
        custom_field: 7,
        page_number: 2,
        parent_id: null,
        data_source: { url: 'file:///x', version: null },
      },
    };
    const json = elementToJSON(elementFromJSON(input));
    expect(json).toEqual({
      type: 'Table',
      element_id: 'abc',
      text: 'a b',
      metadata: { text_as_html: '<table><tr><td>a</td></tr></table>', languages: ['eng'], custom_field: 7, page_number: 2, data_source: { url: 'file:///x' } },
    });
    expect(Object.keys(json)).toEqual(['type', 'element_id', 'text', 'metadata']);
  });

  it('keeps CheckBox.checked and embeddings', () => {
    const el = elementFromJSON({ type: 'CheckBox', element_id: 'c', text: '', metadata: {}, checked: true, embeddings: [0.5, 1] });
    expect(elementToJSON(el)).toMatchObject({ checked: true, embeddings: [0.5, 1] });
  });

  it('names the bad field and position', () => {
    expect(() =>
      elementsFromJSON(
        [
          { type: 'Title', text: 'ok' },
          { type: 'Nope', text: '' },
        ],
        { source: 'x.json' },
      ),
    ).toThrowError(/unknown element type "Nope" \(x\.json\/1\)/);
    expect(() => elementFromJSON({ type: 'Title', text: 3 })).toThrowError(/"text" must be a string/);
    expect(() => elementFromJSON({ type: 'Title', metadata: [] })).toThrowError(/"metadata" must be an object/);
    try {
      elementsFromJSON({});
    } catch (e) {
      expect(e).toBeInstanceOf(QuarryError);
      expect((e as QuarryError).code).toBe('ELEMENT_INVALID');
    }
  });
});
