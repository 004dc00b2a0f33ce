/**
 * @quarry/nodes: node plugins. Partitioners for every common file type, the chunkers, embedders
 * and enrichment prompters, and one-call helpers that run them without a workflow.
 *
 * Every name here is public on purpose (`api/nodes.api.md` is its report, checked by a test).
 */
export { nodesPlugin } from './plugin.js';
export { NODES_ERROR_CODES } from './errors.js';
export { NODES_PROBLEM_CODES } from './problems.js';
export { BUILTIN_TEMPLATES } from './templates.js';

// One-call helpers.
export { partition, type PartitionOptions } from './helpers/partition.js';
export {
  chunk,
  chunkerDefinition,
  chunkerNames,
  type ChunkCallOptions,
  type ChunkerName,
  type ChunkSettingsFor,
  type ChunkSettingsOf,
} from './helpers/chunk.js';
export type { HelperCallOptions } from './helpers/run-node.js';
export {
  documentElements,
  type ChunkStep,
  type DocumentElements,
  type DocumentsInput,
  type FileDocumentsInput,
  type WorkflowDocumentsInput,
} from './helpers/document-elements.js';
export type { FileInput, FolderOptions, NamedBytes } from './helpers/document-files.js';
export { documentParts, type DocumentPart, type DocumentPartsOptions, type FailurePolicy, type LoadMode } from './helpers/document-parts.js';
export { chunkFlatDocuments, type FlatChunk, type FlatDocument } from './helpers/chunk-flat-documents.js';

// Partitioning.
export { partitionFile, type PartitionFileRequest } from './partition/partition-file.js';
export { detectFileType, type DetectedFileType } from './partition/detect-filetype.js';
export { partitionVariant, type PartitionVariant } from './partition/partition-variant.js';
export type { FormatPartitionOptions, FormatPartitioner, PartitionStrategy } from './partition/types.js';
export type { PdfEngine } from './partition/formats/pdf/engine.js';
export type { PartitionUnstructuredApiSettings } from './partition/unstructured-api.node.js';
export { partitionWithVlm } from './partition/vlm/load.js';
export type { VlmPartitionRequest } from './partition/vlm/partition-vlm.js';
export { PARTITION_POOL_SERVICE, PartitionPool, type PartitionPoolOptions, type PooledPartitionOptions } from './pool/partition-pool.js';
export { pooledChunkingError, type PooledChunkerSubtype, type PooledChunking, type PooledChunkingFailure, type PooledChunks } from './pool/pooled-chunking.js';
export type { PartitionTask } from './pool/partition-task.js';
export { INSPECTION_MAX_PAGES, renderInspection, type InspectionOptions } from './inspect/render-inspection.js';
export { elementTypeColor } from './inspect/type-colors.js';
export { htmlReportPage, type ReportPage } from './inspect/report-page.js';
export { SCAN_DPI, scanPdfPages, type ScannedPage } from './inspect/scan-pages.js';

// Chunking.
export { chunkByCharacter } from './chunk/chunk-by-character.js';
export { chunkByTitle } from './chunk/chunk-by-title.js';
export { chunkByPage } from './chunk/chunk-by-page.js';
export { chunkBySimilarity } from './chunk/chunk-by-similarity.js';
export {
  chunkingOptions,
  resolveChunkingOptions,
  type ChunkerNodeSettings,
  type ChunkingOptions,
  type ChunkingOptionsInput,
  type SimilarityChunkingOptions,
} from './chunk/options.js';
export { chunkByCharacterNode } from './chunk/chunk-by-character.node.js';
export { chunkByTitleNode } from './chunk/chunk-by-title.node.js';
export { chunkByPageNode } from './chunk/chunk-by-page.node.js';
export { chunkerNode, type ChunkerDefinition, type ChunkFunction } from './chunk/chunker-node.js';
export { chunkCommonShape, chunkerSettings } from './chunk/chunk-settings.js';
export { createSimilarityEmbedder, type SimilarityEmbedder } from './chunk/similarity-embedder.js';

// Embedders: the model table and the remote backends behind the embed nodes.
export { findEmbeddingModel } from './embed/embedding-models.js';
export { createRemoteBackend, type RemoteBackend } from './embed/remote-backend.js';

// Providers: one client interface over the vendors' SDKs, shared per job.
export { createProvider } from './providers/create-provider.js';
export { createOpenAIProvider } from './providers/openai.js';
export { PROVIDER_POOL_SERVICE, ProviderPool, SHARED_RATE_BUDGETS_SERVICE, providerPool } from './providers/pool.js';
export { systemClock, type Clock } from './providers/sleep.js';
export { VLM_DEFAULT_MODELS, modelProviderMismatch, normalizeProvider, type Provider as ModelProvider } from './providers/models.js';
export type { ChatMessage, ChatRequest, ChatResult, EmbedRequest, EmbedResult, Provider, ProviderName } from './providers/types.js';
