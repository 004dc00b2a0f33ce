// Copies the patched pdf.js (pdfjs-dist, as pnpm installed it with patches/pdfjs-dist@*.patch
// applied) into packages/nodes/vendor/pdfjs/, which @quarry/nodes loads and ships: an npm install
// of the published package applies no pnpm patch, so depending on pdfjs-dist would lose the fixes.
// Run through scripts/vendor.mjs.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Copies the patched pdf.js into vendor/pdfjs/ unless the copy there is current. */
export function vendorPdfjs() {
  const pdfjsRoot = dirname(createRequire(join(nodesRoot, 'package.json')).resolve('pdfjs-dist/package.json'));
  const { version } = JSON.parse(readFileSync(join(pdfjsRoot, 'package.json'), 'utf8'));
  const target = join(nodesRoot, 'vendor', 'pdfjs');
  const stamp = join(target, 'VERSION');
  const patch = join(nodesRoot, '..', '..', 'patches', `pdfjs-dist@${version}.patch`);
  const wanted = `${version}\n${existsSync(patch) ? createHash('sha256').update(readFileSync(patch)).digest('hex') : 'unpatched'}\n`;
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const file of ['pdf.mjs', 'pdf.worker.mjs']) {
    // The source maps are not shipped, so their references go too.
    const code = readFileSync(join(pdfjsRoot, 'legacy', 'build', file), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    writeFileSync(join(target, file), code);
  }
  for (const dir of ['cmaps', 'standard_fonts']) cpSync(join(pdfjsRoot, dir), join(target, dir), { recursive: true });
  cpSync(join(pdfjsRoot, 'LICENSE'), join(target, 'LICENSE'));
  writeFileSync(stamp, wanted);
  console.log(`vendored pdfjs-dist ${version} into ${target}`);
}
