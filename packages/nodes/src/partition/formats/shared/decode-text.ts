import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import { quarryError } from '@quarry/core/errors';

type Iconv = typeof import('iconv-lite');
let iconvLite: Iconv | undefined;

// iconv-lite loads for the encodings TextDecoder is not used for: valid UTF-8 needs none of it.
function iconv(): Iconv {
  return (iconvLite ??= createRequire(import.meta.url)('iconv-lite') as Iconv);
}

// Bytes decoded at a time by decodeTextChunks: each chunk's string is small next to a large file.
const CHUNK_BYTES = 4 * 2 ** 20;

/** A streaming decoder: `write` each piece of the bytes in order, then `end`. */
interface ChunkDecoder {
  /** Bytes of a byte-order mark to skip. */
  bom: number;
  write(chunk: Uint8Array): string;
  end(): string;
}

function webDecoder(label: string, bom: number): ChunkDecoder {
  const d = new TextDecoder(label);
  return { bom, write: (chunk) => d.decode(chunk, { stream: true }), end: () => d.decode() };
}

function iconvDecoder(encoding: string): ChunkDecoder {
  const d = iconv().getDecoder(encoding);
  return { bom: 0, write: (chunk) => d.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)), end: () => d.end() ?? '' };
}

/**
 * The decoder for a text-like document. A byte-order mark wins over `encoding`. Otherwise
 * `encoding` (the partition setting, default `utf-8`) is used; bytes that are not valid UTF-8 fall
 * back to Windows-1252, which decodes every byte, because `unstructured` likewise retries
 * with a detected encoding instead of failing. An encoding name iconv-lite does not know is
 * `INVALID_ARGUMENT`.
 */
function decoderFor(bytes: Uint8Array, encoding: string): ChunkDecoder {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return webDecoder('utf-8', 3);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return webDecoder('utf-16le', 2);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return webDecoder('utf-16be', 2);
  const enc = (encoding || 'utf-8').toLowerCase();
  // Validated whole first: the fallback applies to the whole file, and no string is built to find out.
  if (enc === 'utf-8' || enc === 'utf8') return isUtf8(bytes) ? webDecoder('utf-8', 0) : iconvDecoder('windows-1252');
  if (!iconv().encodingExists(enc)) throw quarryError('INVALID_ARGUMENT', `unknown text encoding "${encoding}"`, { details: { encoding } });
  return iconvDecoder(enc);
}

/** Decodes the bytes of a text-like document (CSV, TSV, XML kept as text) as {@link decoderFor} says. */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  const d = decoderFor(bytes, encoding);
  return d.write(bytes.subarray(d.bom)) + d.end();
}

/**
 * Decodes like {@link decodeText}, a few MB at a time, so that a large file is never one string;
 * a character split between two pieces of bytes comes out whole.
 */
export function* decodeTextChunks(bytes: Uint8Array, encoding: string): Generator<string> {
  const d = decoderFor(bytes, encoding);
  for (let at = d.bom; at < bytes.byteLength; at += CHUNK_BYTES) {
    const text = d.write(bytes.subarray(at, Math.min(at + CHUNK_BYTES, bytes.byteLength)));
    if (text) yield text;
  }
  const rest = d.end();
  if (rest) yield rest;
}
