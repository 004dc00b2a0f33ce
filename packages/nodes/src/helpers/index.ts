/** One-call helpers: partition a file and chunk elements without building a workflow. */
export { partition, type PartitionOptions } from './partition.js';
export { chunk, type ChunkSettingsOf } from './chunk.js';
export type { HelperCallOptions } from './run-node.js';
