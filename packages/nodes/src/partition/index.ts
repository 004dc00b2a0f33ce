export { partitionFile, type PartitionFileRequest } from './partition-file.js';
export { detectFileType, canonicalMimeType, type DetectedFileType } from './detect-filetype.js';
export { detectLanguages } from './languages.js';
export { BUILTIN_FORMATS, findFormat, loadFormat } from './formats/index.js';
export {
  EXCLUDE_ELEMENT_TYPES,
  EXTRACT_IMAGE_BLOCK_TYPES,
  UNSTRUCTURED_API_STRATEGIES,
  partitionUnstructuredApiSettings,
  unstructuredApiPartitionNode,
  type PartitionUnstructuredApiSettings,
  type PartitionUnstructuredApiSettingsInput,
} from './unstructured-api.node.js';
export { VLM_OUTPUT_FORMATS, partitionVlmSettings, vlmPartitionNode, type PartitionVlmSettings, type PartitionVlmSettingsInput } from './vlm.node.js';
export { partitionVariant, type PartitionVariant } from './partition-variant.js';
export type { FormatDefinition, FormatPartitioner, FormatPartitionOptions, PartitionStrategy } from './types.js';
export { DEFAULT_PDF_ENGINE, PDF_ENGINES, type PdfEngine } from './formats/pdf/engine.js';
export { partitionLimits, limitError, limitWarning, DEFAULT_LIMITS, LIMIT_ENV, type PartitionLimits } from './limits.js';
