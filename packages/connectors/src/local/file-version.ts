import { createHash, type Hash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** How the local source computes a document's `version`. */
export type VersionMode = 'content_hash' | 'size_mtime';

/** What {@link fileVersion} needs from `fs.stat(path, { bigint: true })`. */
export interface VersionStats {
  size: bigint;
  mtimeNs: bigint;
}

/** Largest read buffer: bigger files are hashed this many bytes at a time, so memory stays flat. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * SHA-256 of a file's bytes as lowercase hex. The file is read through one handle into a buffer of
 * its expected size (`sizeHint`, when the caller has just measured it) up to 4 MiB, so a small file
 * costs one read; a larger one (or one that has grown) is hashed chunk by chunk.
 */
export async function sha256File(path: string, signal?: AbortSignal, sizeHint?: number): Promise<string> {
  signal?.throwIfAborted();
  const file = await open(path, 'r');
  try {
    const hash: Hash = createHash('sha256');
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

/**
 * The version string of a file: the SHA-256 of its content (`content_hash`), or `<size>-<mtime ns>`
 * (`size_mtime`, which never reads the file). The two forms never collide, so switching modes makes
 * every document look changed once rather than hiding a change.
 */
export async function fileVersion(mode: VersionMode, path: string, stats: VersionStats, signal?: AbortSignal): Promise<string> {
  switch (mode) {
    case 'content_hash':
      return sha256File(path, signal, Number(stats.size));
    case 'size_mtime':
      return `${stats.size}-${stats.mtimeNs}`;
  }
}
