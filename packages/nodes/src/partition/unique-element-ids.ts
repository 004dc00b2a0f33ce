import { z } from 'zod';

/** `unique_element_ids`, shared by every partitioner. */
export const uniqueElementIds = z.boolean().default(true).describe('true: UUID element ids; false: SHA-256 of the element text');
