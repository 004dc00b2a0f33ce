/** @quarry/cli: the `quarry` command, also usable programmatically. */
export { main, buildProgram } from './main.js';
export { defaultEngine } from './engine.js';
export { formatSummary } from './commands/run.js';
export { CLI_ERROR_CODES } from './errors.js';
