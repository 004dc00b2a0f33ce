export * from './events.js';
export * from './job-summary.js';
export * from './job-shell.js';
export * from './logger.js';
export * from './pull-source.js';
export * from './run-job.js';
export { nodeChannel } from './node-stages.js';
export * from './state-store.js';
export * from './process-pool.js';
