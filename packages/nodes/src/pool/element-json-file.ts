import { open } from 'node:fs/promises';
import type { Element } from '@quarry/core';
import { elementJsonPieces } from '@quarry/core/element';
import { errorMessage, quarryError } from '@quarry/core/errors';

// Elements stringified at a time, in the partition process: few writes, and never one string for the whole array.
const BATCH = 1000;

/**
 * Writes `elements` into `file` as the element JSON array `quarry partition` writes: sparse
 * metadata, two-space indentation, a final newline, the bytes of
 * `JSON.stringify(elements.map(elementToJSON), null, 2) + '\n'`, written a thousand elements at a
 * time (`elementJsonPieces`). A failure to open or
 * write throws `DESTINATION_WRITE_FAILED` naming `target` (the name the file is written for).
 */
export async function writeElementJsonFile(elements: readonly Element[], file: string, target: string): Promise<void> {
  try {
    const out = await open(file, 'w');
    try {
      // A handle's writeFile writes all of its text at the current position (write may stop short).
      for (const piece of elementJsonPieces(elements, BATCH)) await out.writeFile(piece);
    } finally {
      await out.close();
    }
  } catch (e) {
    throw quarryError('DESTINATION_WRITE_FAILED', `cannot write ${target}: ${errorMessage(e)}`, { cause: e, details: { path: target } });
  }
}
