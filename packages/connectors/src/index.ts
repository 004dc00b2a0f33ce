/**
 * @quarry/connectors: connector plugins. `local` (filesystem source and destination) today; each
 * connector lives in its own folder and is listed once in `plugin.ts`.
 */
export * from './local/index.js';
export { connectorsPlugin } from './plugin.js';
