import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Largest read buffer: bigger files are hashed this many bytes at a time, so memory stays flat. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * SHA-256 of a file's bytes as lowercase hex. The file is read through one handle into a buffer of
 * its expected size (`sizeHint`, when the caller has just measured it) up to 4 MiB, so a small file
 * costs one read; a larger one (or one that has grown) is hashed chunk by chunk.
 *
 * @param signal checked before each read; an aborted signal rejects with its reason.
 * @example
 * ```ts
 * const digest = await sha256File('report.pdf'); // 'e3b0c442...'
 * ```
 */
export async function sha256File(path: string, signal?: AbortSignal, sizeHint?: number): Promise<string> {
  signal?.throwIfAborted();
  const file = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    // One byte more than expected, so that a file read whole ends with a read of 0 bytes; a file
    // that fills it is larger than expected (or grew), and the rest is read a chunk at a time.
    let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, (sizeHint ?? CHUNK_BYTES) + 1));
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      if (bytesRead === buffer.length && buffer.length < CHUNK_BYTES) buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    }
    return hash.digest('hex');
  } finally {
    await file.close();
  }
}
