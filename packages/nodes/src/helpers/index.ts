/** One-call helpers: partition a file and chunk elements without building a workflow. */
export { partition, type PartitionOptions } from './partition.js';
export { chunk, chunkerDefinition, chunkerNames, type ChunkCallOptions, type ChunkerName, type ChunkSettingsFor, type ChunkSettingsOf } from './chunk.js';
export type { HelperCallOptions } from './run-node.js';
export { documentElements, type ChunkStep, type DocumentElements, type DocumentsInput, type FileDocumentsInput, type WorkflowDocumentsInput } from './document-elements.js';
export type { FileInput, FolderOptions, NamedBytes } from './document-files.js';
export { documentParts, type DocumentPart, type DocumentPartsOptions, type FailurePolicy, type LoadMode } from './document-parts.js';
export { chunkFlatDocuments, type FlatChunk, type FlatDocument } from './chunk-flat-documents.js';
