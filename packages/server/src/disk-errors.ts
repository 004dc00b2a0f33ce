import { statfsSync } from 'node:fs';
import { errorMessage, isQuarryError, quarryError, type QuarryError } from '@quarry/core';
import './errors.js';

// Errno codes of a write that found no room: no space left, or the user's quota used up.
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

/** True when `e` is a file-system error saying the disk (or quota) is full. */
export function isNoSpace(e: unknown): boolean {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && NO_SPACE.has(code);
}

/**
 * A write under `dir` that failed for lack of space as `DISK_FULL` (507), naming the directory;
 * undefined for any other error (left as it is).
 */
export function diskWriteError(e: unknown, dir: string): QuarryError | undefined {
  if (isQuarryError(e) || !isNoSpace(e)) return undefined;
  return quarryError('DISK_FULL', `No space left to write under ${dir}: ${errorMessage(e)}. Free some space and retry.`, {
    cause: e,
    details: { directory: dir },
  });
}

/** Free bytes of the file system holding `dir`, or undefined when it cannot be asked. */
export function freeBytes(dir: string): number | undefined {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}
