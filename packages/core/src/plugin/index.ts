export * from './types.js';
export * from './settings.js';
export * from './define.js';
export * from './registry.js';
export * from './services.js';
export * from './rate-budgets.js';
