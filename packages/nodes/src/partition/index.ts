export { partitionFile, type PartitionFileRequest } from './partition-file.js';
export { detectFileType, canonicalMimeType, type DetectedFileType } from './detect-filetype.js';
export { detectLanguages } from './languages.js';
export { BUILTIN_FORMATS, findFormat, loadFormat } from './formats/index.js';
export { unstructuredApiPartitionNode } from './partition-node.js';
export type { FormatDefinition, FormatPartitioner, FormatPartitionOptions, PartitionStrategy } from './types.js';
export { partitionLimits, limitError, limitWarning, DEFAULT_LIMITS, LIMIT_ENV, type PartitionLimits } from './limits.js';
