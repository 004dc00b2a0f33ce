import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: tests run @quarry/nodes from source, which loads pdf.js and the packed
 * tagger dictionaries from the package's `vendor/`; the build puts them there, and so does this, so
 * `npx vitest run` works before any build (each script returns at once when its copy is current).
 */
export default function setup(): void {
  for (const script of ['vendor-pdfjs.mjs', 'pack-wink-lexicon.mjs']) {
    execFileSync(process.execPath, [fileURLToPath(new URL(`../../scripts/${script}`, import.meta.url))], { stdio: 'inherit' });
  }
}
