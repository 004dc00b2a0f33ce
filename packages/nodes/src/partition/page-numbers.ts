import type { Element } from '@quarry/core';
import { quarryError } from '@quarry/core/errors';

/**
 * Checks a `starting_page_number` request field: absent, or an integer (any integer, as
 * `unstructured`'s partitioners take it).
 *
 * @throws QuarryError `INVALID_ARGUMENT` for anything else.
 */
export function validStartingPageNumber(value: unknown): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw quarryError('INVALID_ARGUMENT', `starting_page_number must be an integer, got ${JSON.stringify(value)}`, {
      details: { starting_page_number: value },
    });
  }
  return value;
}

/**
 * Numbers a document's pages from `start` instead of 1: every `page_number` of the document's own
 * elements moves by `start - 1`. Attachments keep theirs (their pages belong to another file).
 * Runs before ids are hashed, as in `unstructured`, so a page range partitioned alone (a client-side
 * PDF split) gets the ids its pages have in the whole document.
 */
export function shiftPageNumbers(elements: readonly Element[], start: number): void {
  if (start === 1) return;
  for (const el of elements) {
    if (el.metadata.page_number !== undefined && !el.metadata.attached_to_filename) el.metadata.page_number += start - 1;
  }
}
