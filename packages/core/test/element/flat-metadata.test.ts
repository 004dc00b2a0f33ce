import { describe, expect, it } from 'vitest';
import { flatElementMetadata, type Element } from '../../src/index.js';

describe('flatElementMetadata', () => {
  it('keeps scalars and lists of scalars, joins nested keys with _, writes lists of objects as JSON, leaves out base64 blobs', () => {
    const element: Element = {
      element_id: 'e1',
      type: 'Table',
      text: 'a b',
      metadata: {
        filename: 'r.pdf',
        page_number: 2,
        languages: ['eng'],
        is_continuation: false,
        data_source: { url: 'file:///r.pdf', record_locator: { path: '/x/r.pdf' } },
        links: [{ text: 'q', url: 'https://q', start_index: 0 }],
        orig_elements: 'eJyLjgUAARUAuQ==',
        image_base64: 'iVBORw0KGgo=',
        text_as_html: '<table><tr><td>a</td></tr></table>',
      },
    };
    expect(flatElementMetadata(element)).toEqual({
      element_id: 'e1',
      type: 'Table',
      filename: 'r.pdf',
      page_number: 2,
      languages: ['eng'],
      is_continuation: false,
      data_source_url: 'file:///r.pdf',
      data_source_record_locator_path: '/x/r.pdf',
      links: '[{"text":"q","url":"https://q","start_index":0}]',
      text_as_html: '<table><tr><td>a</td></tr></table>',
    });
  });
});
