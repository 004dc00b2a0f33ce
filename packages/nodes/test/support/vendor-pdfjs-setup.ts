import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: tests run @quarry/nodes from source, which loads pdf.js from the package's
 * `vendor/pdfjs/`; the build puts it there, and so does this, so `npx vitest run` works before any
 * build (it returns at once when the copy is current).
 */
export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/vendor-pdfjs.mjs', import.meta.url))], { stdio: 'inherit' });
}
