import { describe, expect, it } from 'vitest';
import { flattenObject } from '../../src/search-index/flatten.js';

describe('flattenObject', () => {
  it('joins nested keys with the separator and keeps lists (their objects too) as they are', () => {
    const meta = {
      filename: 'a.pdf',
      coordinates: {
        points: [
          [0, 1],
          [2, 3],
        ],
        system: 'PixelSpace',
      },
      data_source: { record_locator: { protocol: 'file', remote_file_path: '/a.pdf' }, permissions_data: [{ mode: 420 }] },
      entities: { items: [{ entity: 'Ada', type: 'PERSON' }] },
      empty: {},
    };
    expect(flattenObject(meta, '-')).toEqual({
      filename: 'a.pdf',
      'coordinates-points': [
        [0, 1],
        [2, 3],
      ],
      'coordinates-system': 'PixelSpace',
      'data_source-record_locator-protocol': 'file',
      'data_source-record_locator-remote_file_path': '/a.pdf',
      'data_source-permissions_data': [{ mode: 420 }],
      'entities-items': [{ entity: 'Ada', type: 'PERSON' }],
    });
  });
});
