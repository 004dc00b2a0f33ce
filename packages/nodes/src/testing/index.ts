/**
 * Conformance suites for plugin authors (`@quarry/nodes/testing`): the behaviour every format
 * partitioner and every chunker shares, as vitest suites. Our own formats and chunkers run them.
 * Needs `vitest` installed (a peer dependency of this entry only).
 *
 * @example
 * ```ts
 * import { testChunkerConformance, testFormatConformance } from '@quarry/nodes/testing';
 * ```
 */
export { conformanceDocument, testChunkerConformance, type ChunkerUnderTest, type ConformanceChunkOptions } from './chunker-conformance.js';
export { testFormatConformance, type FormatConformanceOptions, type FormatSample } from './format-conformance.js';
export { formatPartitionOptions } from './format-options.js';
