import { describe, expect, it } from 'vitest';
import { elementImage } from '../../src/prompter/element-image.js';
import { el, PNG_1X1 } from './chat-wire.js';

describe('elementImage', () => {
  it('uses the declared MIME type, else the magic bytes, and refuses other formats', () => {
    expect(elementImage(el('Image', '', { image_base64: 'abc', image_mime_type: 'image/jpg' }))).toEqual({
      type: 'image',
      mimeType: 'image/jpeg',
      data: 'abc',
    });
    expect(elementImage(el('Image', '', { image_base64: PNG_1X1 }))?.mimeType).toBe('image/png');
    expect(elementImage(el('Image', '', { image_base64: 'R0lGODlhAQABAAAAACw=', image_mime_type: 'image/gif' }))).toBeUndefined();
    expect(elementImage(el('Image', '', {}))).toBeUndefined();
  });
});
