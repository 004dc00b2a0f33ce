import type { Element } from '@quarry/core';
import { writeElementJsonToFile } from '@quarry/core/element';
import { errorMessage, quarryError } from '@quarry/core/errors';

/**
 * Writes `elements` into `file` as the element JSON array `quarry partition` writes: sparse
 * metadata, two-space indentation, a final newline, the bytes of
 * `JSON.stringify(elements.map(elementToJSON), null, 2) + '\n'`, stringified a hundred elements
 * at a time and written a megabyte at a time (`writeElementJsonToFile`). A failure to open or write
 * throws `DESTINATION_WRITE_FAILED` naming `target` (the name the file is written for).
 */
export async function writeElementJsonFile(elements: readonly Element[], file: string, target: string): Promise<void> {
  try {
    await writeElementJsonToFile(file, elements);
  } catch (e) {
    throw quarryError('DESTINATION_WRITE_FAILED', `cannot write ${target}: ${errorMessage(e)}`, { cause: e, details: { path: target } });
  }
}
