import { zod } from '@quarry/core';

/** `unique_element_ids`, shared by every partitioner (a new schema each call: a partitioner's settings build it once). */
export const uniqueElementIds = () => zod().boolean().default(true).describe('true: UUID element ids; false: SHA-256 of the element text');
