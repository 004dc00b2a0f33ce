import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '@quarry/core';
import { UserError } from '../user-error.js';

/** Writes `text` to `target` through a temporary file, so a reader never sees half a file; a failure is a UserError naming the file. */
export async function writeAtomically(target: string, text: string): Promise<void> {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, target);
  } catch (e) {
    throw new UserError(`cannot write ${target}: ${errorMessage(e)}`);
  }
}
