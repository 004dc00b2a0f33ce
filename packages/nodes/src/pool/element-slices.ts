import type { Element } from '@quarry/core';

/**
 * About this many bytes of elements go back to the caller's process per message: deserializing
 * one takes a few milliseconds of its event loop, where the 3.8 MB of a 600-page PDF's elements in
 * one message held it for 75 ms or more.
 */
export const SLICE_BYTES = 256 * 1024;

/**
 * A rough size of plain data (an element): its strings' characters, plus a few bytes per number,
 * key and value. Cheap next to serializing it, and close enough to cut messages to size.
 */
function roughBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 2;
  if (Array.isArray(value)) for (const item of value) bytes += roughBytes(item) + 1;
  else for (const [key, item] of Object.entries(value)) bytes += key.length + 4 + roughBytes(item);
  return bytes;
}

/**
 * Cuts `elements` into consecutive slices of about `maxBytes` each (one element at least), in
 * order: joined again they are `elements`.
 */
export function elementSlices(elements: readonly Element[], maxBytes = SLICE_BYTES): Element[][] {
  const slices: Element[][] = [];
  let slice: Element[] = [];
  let bytes = 0;
  for (const element of elements) {
    const size = roughBytes(element);
    if (slice.length > 0 && bytes + size > maxBytes) {
      slices.push(slice);
      slice = [];
      bytes = 0;
    }
    slice.push(element);
    bytes += size;
  }
  if (slice.length > 0) slices.push(slice);
  return slices;
}
