import { open } from 'node:fs/promises';
import type { Element } from '@quarry/core';
import { elementToJSON } from '@quarry/core/element';
import { errorMessage, quarryError } from '@quarry/core/errors';

// Elements stringified at a time: the whole array of a long document is never one string.
const BATCH = 1000;

/**
 * Writes `elements` into `file` as the element JSON array `quarry partition` writes: sparse
 * metadata, two-space indentation, a final newline, the bytes of
 * `JSON.stringify(elements.map(elementToJSON), null, 2) + '\n'`. Written a batch at a time: each
 * batch is stringified as an array at the same depth and loses its brackets. A failure to open or
 * write throws `DESTINATION_WRITE_FAILED` naming `target` (the name the file is written for).
 */
export async function writeElementJsonFile(elements: readonly Element[], file: string, target: string): Promise<void> {
  try {
    const out = await open(file, 'w');
    try {
      // A handle's writeFile writes all of its text at the current position (write may stop short).
      if (elements.length === 0) await out.writeFile('[]\n');
      for (let i = 0; i < elements.length; i += BATCH) {
        const batch = JSON.stringify(elements.slice(i, i + BATCH).map(elementToJSON), null, 2);
        // `[\n  {...},\n  {...}\n]` -> `\n  {...},\n  {...}`, joined by commas inside one pair of brackets.
        await out.writeFile(`${i === 0 ? '[' : ','}${batch.slice(1, -2)}${i + BATCH >= elements.length ? '\n]\n' : ''}`);
      }
    } finally {
      await out.close();
    }
  } catch (e) {
    throw quarryError('DESTINATION_WRITE_FAILED', `cannot write ${target}: ${errorMessage(e)}`, { cause: e, details: { path: target } });
  }
}
