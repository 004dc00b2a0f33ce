export { localSource, localSourceConfig, type LocalSourceConfig } from './local-source.js';
export { localDestination, localDestinationConfig, outputPathFor, serializeElements, OUTPUT_SUFFIX, type LocalDestinationConfig } from './local-destination.js';
export { createPathFilter, type PathFilter, type PathFilterOptions } from './path-filter.js';
export { fileVersion, sha256File, type VersionMode, type VersionStats } from './file-version.js';
export { writeFileAtomic } from './atomic-write.js';
