import { open } from 'node:fs/promises';
import type { Element } from '@quarry/core';
import { elementToJSON } from '@quarry/core/element';
import { errorMessage, quarryError } from '@quarry/core/errors';

// Elements stringified at a time. V8 builds JSON.stringify's result from pieces and joins them
// when the string is encoded: joining strings of about 50 kB costs several times less than
// joining those of 1000 elements (about 500 kB, 100 ms more on a 619-page PDF's 5 MB).
const BATCH = 100;
// Encoded batches are written together once they hold this many bytes: one write, not one a batch.
const WRITE_BYTES = 1 << 20;

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
      // A handle's writeFile writes all of its bytes at the current position (write may stop short).
      if (elements.length === 0) await out.writeFile('[]\n');
      let pending: Buffer[] = [];
      let bytes = 0;
      for (let i = 0; i < elements.length; i += BATCH) {
        const batch = JSON.stringify(elements.slice(i, i + BATCH).map(elementToJSON), null, 2);
        // `[\n  {...},\n  {...}\n]` -> `\n  {...},\n  {...}`, joined by commas inside one pair of brackets.
        const last = i + BATCH >= elements.length;
        const chunk = Buffer.from(`${i === 0 ? '[' : ','}${batch.slice(1, -2)}${last ? '\n]\n' : ''}`);
        pending.push(chunk);
        bytes += chunk.length;
        if (bytes >= WRITE_BYTES || last) {
          await out.writeFile(Buffer.concat(pending, bytes));
          pending = [];
          bytes = 0;
        }
      }
    } finally {
      await out.close();
    }
  } catch (e) {
    throw quarryError('DESTINATION_WRITE_FAILED', `cannot write ${target}: ${errorMessage(e)}`, { cause: e, details: { path: target } });
  }
}
