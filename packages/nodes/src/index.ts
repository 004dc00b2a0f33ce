/**
 * @quarry/nodes: node plugins. Partitioners for every common file type and the chunkers.
 */
export * from './partition/index.js';
export * from './partition/vlm/index.js';
export * from './chunk/index.js';
export * from './embed/index.js';
export * from './prompter/index.js';
export * from './providers/index.js';
export { nodesPlugin } from './plugin.js';
export * from './pool/index.js';
export * from './helpers/index.js';
export * from './inspect/index.js';
export { NODES_ERROR_CODES } from './errors.js';
export { NODES_PROBLEM_CODES } from './problems.js';
export { BUILTIN_TEMPLATES } from './templates.js';
