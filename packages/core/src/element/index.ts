export * from './types.js';
export * from './json.js';
export * from './ids.js';
export * from './orig-elements.js';
export * from './flat-metadata.js';
