import type { Element } from '@quarry/core';
import type { ImagePart } from '../providers/types.js';

/**
 * The element's stored image (`metadata.image_base64`) as a chat image part, or undefined when it
 * has none or it is neither PNG nor JPEG (the formats every provider accepts). The MIME type comes
 * from `image_mime_type` and, when that is absent or vague, from the data's magic bytes.
 */
export function elementImage(el: Element): ImagePart | undefined {
  const data = el.metadata.image_base64;
  if (typeof data !== 'string' || data.length === 0) return undefined;
  const declared = (el.metadata.image_mime_type ?? '').toLowerCase();
  if (declared === 'image/png') return { type: 'image', mimeType: 'image/png', data };
  if (declared === 'image/jpeg' || declared === 'image/jpg') return { type: 'image', mimeType: 'image/jpeg', data };
  // Base64 of the PNG signature (89 50 4E 47) and of the JPEG SOI marker (FF D8 FF).
  if (data.startsWith('iVBORw0KGgo')) return { type: 'image', mimeType: 'image/png', data };
  if (data.startsWith('/9j/')) return { type: 'image', mimeType: 'image/jpeg', data };
  return undefined;
}
