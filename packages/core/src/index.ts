/**
 * @quarry/core: the engine. Element model, workflow schema and validation, plans, the RxJS runtime,
 * the plugin registry. No file-format or vendor code lives here.
 */
export * from './errors.js';
export * from './version.js';
export * from './element/index.js';
export * from './plugin/index.js';
export * from './workflow/index.js';
export * from './plan/index.js';
export * from './runtime/index.js';
export * from './engine.js';
export * from './file-hash.js';
export * from './service/index.js';
