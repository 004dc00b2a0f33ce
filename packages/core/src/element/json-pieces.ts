import { elementToJSON } from './json.js';
import type { Element } from './types.js';

/**
 * The element JSON array that `quarry partition` writes and a job keeps for download: sparse
 * metadata, two-space indentation and a final newline, the bytes of
 * `JSON.stringify(elements.map(elementToJSON), null, 2) + '\n'`, made `batch` elements at a time
 * (default 100). A long document's JSON is then never one string, and a writer that awaits each
 * piece lets other work run between them (a server's requests). Each batch is stringified as an
 * array at the same depth and loses its brackets; the pieces joined are the whole array.
 */
export function* elementJsonPieces(elements: readonly Element[], batch = 100): Generator<string> {
  if (elements.length === 0) yield '[]\n';
  for (let i = 0; i < elements.length; i += batch) {
    const json = JSON.stringify(elements.slice(i, i + batch).map(elementToJSON), null, 2);
    // `[\n  {...},\n  {...}\n]` -> `\n  {...},\n  {...}`, joined by commas inside one pair of brackets.
    yield `${i === 0 ? '[' : ','}${json.slice(1, -2)}${i + batch >= elements.length ? '\n]\n' : ''}`;
  }
}
