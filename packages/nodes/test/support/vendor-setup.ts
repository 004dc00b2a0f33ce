import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: tests run @quarry/nodes from source, which loads pdf.js and the packed
 * tagger dictionaries from the package's `vendor/`; the build puts them there, and so does this, so
 * `npx vitest run` works before any build (it returns at once when the copies are current).
 */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/vendor.mjs', import.meta.url))], { stdio: 'inherit' });
}
