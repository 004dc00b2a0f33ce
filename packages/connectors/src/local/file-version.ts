import { sha256File } from '@quarry/core';

export { sha256File };

/** How the local source computes a document's `version`. */
export type VersionMode = 'content_hash' | 'size_mtime';

/** What {@link fileVersion} needs from `fs.stat(path, { bigint: true })`. */
export interface VersionStats {
  size: bigint;
  mtimeNs: bigint;
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
