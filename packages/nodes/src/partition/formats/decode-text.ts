import iconv from 'iconv-lite';
import { quarryError } from '@quarry/core';

/**
 * Decodes the bytes of a text-like document (CSV, TSV, XML kept as text).
 *
 * A byte-order mark wins over `encoding`. Otherwise `encoding` (the partition setting, default
 * `utf-8`) is used; bytes that are not valid UTF-8 fall back to Windows-1252, which decodes every
 * byte, because the reference library likewise retries with a detected encoding instead of
 * failing. An encoding name iconv-lite does not know is `INVALID_ARGUMENT`.
 */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const enc = (encoding || 'utf-8').toLowerCase();
  if (enc === 'utf-8' || enc === 'utf8') {
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return iconv.decode(bytes, 'windows-1252');
    }
  }
  if (!iconv.encodingExists(enc)) throw quarryError('INVALID_ARGUMENT', `unknown text encoding "${encoding}"`, { details: { encoding } });
  return iconv.decode(bytes, enc);
}
