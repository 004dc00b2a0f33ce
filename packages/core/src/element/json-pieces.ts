import { open } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { elementToJSON } from './json.js';
import type { Element } from './types.js';

/**
 * The element JSON array that `quarry partition` writes and a job keeps for download: sparse
 * metadata, two-space indentation and a final newline, the bytes of
 * `JSON.stringify(elements.map(elementToJSON), null, 2) + '\n'`, made `batch` elements at a time
 * (default 100): a long document's JSON is never one string ({@link writeElementJson} writes them).
 * Each batch is stringified as an array at the same depth and loses its brackets; the pieces joined
 * are the whole array.
 */
export function* elementJsonPieces(elements: readonly Element[], batch = 100): Generator<string> {
  if (elements.length === 0) yield '[]\n';
  for (let i = 0; i < elements.length; i += batch) {
    const json = JSON.stringify(elements.slice(i, i + batch).map(elementToJSON), null, 2);
    // `[\n  {...},\n  {...}\n]` -> `\n  {...},\n  {...}`, joined by commas inside one pair of brackets.
    yield `${i === 0 ? '[' : ','}${json.slice(1, -2)}${i + batch >= elements.length ? '\n]\n' : ''}`;
  }
}

/** Where {@link writeElementJson} writes: a `node:fs/promises` `FileHandle`, for one. */
export interface ElementJsonSink {
  /** Writes all of `data` after what was written before. */
  writeFile(data: Uint8Array): Promise<unknown>;
}

/**
 * Writes the element JSON array of {@link elementJsonPieces} into `out`, its pieces encoded and
 * gathered into writes of at least `writeBytes` (default 1 MiB): few writes, each of a few pieces
 * (V8 joins a stringified piece when it is encoded, and joining small ones costs less). The event
 * loop turns between pieces, so a server's is held one piece at a time, not a megabyte. One write
 * is under way while the next is made (each starts once the one before has ended, so they land in
 * order): the thread making the JSON does not wait for the disk.
 */
export async function writeElementJson(out: ElementJsonSink, elements: readonly Element[], writeBytes = 1 << 20): Promise<void> {
  let pending: Buffer[] = [];
  let bytes = 0;
  let writing: Promise<unknown> | undefined;
  let first = true;
  for (const piece of elementJsonPieces(elements)) {
    // The event loop turns between pieces, a write under way or not.
    if (!first) await nextTurn();
    first = false;
    const chunk = Buffer.from(piece);
    pending.push(chunk);
    bytes += chunk.length;
    if (bytes < writeBytes) continue;
    await writing;
    writing = out.writeFile(Buffer.concat(pending, bytes));
    // Its failure is thrown where it is awaited, not reported unhandled while the next piece is made.
    writing.catch(() => undefined);
    pending = [];
    bytes = 0;
  }
  await writing;
  if (bytes > 0) await out.writeFile(Buffer.concat(pending, bytes));
}

/** Writes the element JSON array of `elements` into the file at `path` (created, or emptied first) with {@link writeElementJson}. */
export async function writeElementJsonToFile(path: string, elements: readonly Element[]): Promise<void> {
  const out = await open(path, 'w');
  try {
    await writeElementJson(out, elements);
  } finally {
    await out.close();
  }
}
