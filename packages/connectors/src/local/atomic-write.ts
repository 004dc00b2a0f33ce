import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** Prefix and suffix of in-flight temp files, so that tools (and tests) can recognise leftovers. */
export const TEMP_PREFIX = '.';
/** Suffix of in-flight temp files. */
export const TEMP_SUFFIX = '.tmp';

/**
 * Longest part of the target name kept in the temp name: the temp name adds a dot, a random tag and
 * a suffix, and must still fit the usual 255-byte name limit when the target itself is near it.
 */
const MAX_STEM = 120;

/** The temp file name used while writing `target`. Hidden, so a local source does not list it. */
export function tempPathFor(target: string): string {
  const stem = path.basename(target).slice(0, MAX_STEM);
  return path.join(path.dirname(target), `${TEMP_PREFIX}${stem}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

/**
 * Replaces `target` with `data` so that readers see either the old file or the complete new one,
 * never a partial file: the bytes go to a temp file in the same directory, are flushed to disk, and
 * the temp file is renamed over the target (rename is atomic within a filesystem). On any failure,
 * including `signal` aborting, the temp file is removed and the target is left untouched.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  const tmp = tempPathFor(target);
  try {
    // `wx`: never write through a file someone else created under the same random name.
    const handle = await open(tmp, 'wx');
    try {
      await handle.writeFile(data, signal ? { signal } : {});
      // Without the flush, a crash soon after the rename can leave an empty target on some filesystems.
      await handle.sync();
    } finally {
      await handle.close();
    }
    signal?.throwIfAborted();
    await rename(tmp, target);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
