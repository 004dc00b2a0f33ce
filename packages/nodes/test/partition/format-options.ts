/** Format-partitioner options as the partition node passes them, with overrides (the testing kit's). */
export { formatPartitionOptions as formatOptions } from '../../src/testing/format-options.js';

/** UTF-8 bytes of a string. */
export function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
