import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { elementToJSON, encodeOrigElements, type Element } from '@quarry/core';

/** One partitioned upload of a legacy request, as it is answered. */
export interface PartitionedUpload {
  elements: readonly Element[];
  /** The name the answer gives each element's `metadata.filename`. */
  filename: string;
  /** Whether `metadata.coordinates` stays in the answer. */
  coordinates: boolean;
}

/** Elements turned to JSON per piece of the answer: some 40 KB, one event-loop turn's work. */
const ELEMENTS_PER_PIECE = 100;

/** One element as the Unstructured API answers it: its JSON without what that API strips. */
export function answerElement(el: Element, upload: Pick<PartitionedUpload, 'filename' | 'coordinates'>): Record<string, unknown> {
  const json = elementToJSON(el) as unknown as Record<string, unknown>;
  const metadata = { ...((json.metadata as Record<string, unknown> | undefined) ?? {}) };
  metadata.filename = upload.filename;
  delete metadata.file_directory;
  delete metadata.last_modified;
  delete metadata.detection_class_prob;
  if (!upload.coordinates) delete metadata.coordinates;
  // The Unstructured API's element JSON carries orig_elements compressed (zlib + Base64), not as objects.
  if (Array.isArray(el.metadata.orig_elements)) metadata.orig_elements = encodeOrigElements(el.metadata.orig_elements);
  return { ...json, metadata };
}

async function* pieces(uploads: readonly PartitionedUpload[]): AsyncGenerator<string> {
  const several = uploads.length !== 1;
  if (several) yield '[';
  for (const [u, upload] of uploads.entries()) {
    let piece = u > 0 ? ',[' : '[';
    for (let i = 0; i < upload.elements.length; i += ELEMENTS_PER_PIECE) {
      const batch = upload.elements.slice(i, i + ELEMENTS_PER_PIECE).map((el) => JSON.stringify(answerElement(el, upload)));
      piece += (i > 0 ? ',' : '') + batch.join(',');
      yield piece;
      piece = '';
      // Each piece in its own event-loop turn: other requests are answered between them.
      await nextTurn();
    }
    yield `${piece}]`;
  }
  if (several) yield ']';
}

/**
 * The JSON answer of the legacy endpoint (the elements of one upload as an array, of several as an
 * array of arrays), made a piece at a time as the client reads it. Why: the answer of a 600-page PDF
 * is some 9,000 elements and 4 MB; made and written at once, it held the server's event loop for a
 * quarter of a second or more, /healthcheck included. The bytes are those of `JSON.stringify`.
 */
export function answerJson(uploads: readonly PartitionedUpload[]): Readable {
  return Readable.from(pieces(uploads), { objectMode: false });
}
