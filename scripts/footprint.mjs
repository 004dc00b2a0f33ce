// npm run footprint: what `npm install @quarry/core @quarry/nodes` weighs. Builds, packs the two
// packages, installs the tarballs with plain npm into a temporary project and prints JSON lines:
// the total (`mb`: the bytes of the files, as npm size tools count them; `disk_mb`: the disk space
// they take here, as `du`), the 15 largest packages, then the total with the OCR extras added
// (tesseract.js, its English and script-detection data, @napi-rs/canvas, sharp). Exits 1 when the
// base install's `mb` is over FOOTPRINT_LIMIT_MB or it runs an install script.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, ensureInstalled } from './lib.mjs';
import { FOOTPRINT_LIMIT_MB, MB, footprint, installScripts, newNpmProject, npmInstall, packPackages, pinnedVersions } from './pack-install.mjs';

const OCR_EXTRAS = ['tesseract.js', '@tesseract.js-data/eng', '@tesseract.js-data/osd', '@napi-rs/canvas', 'sharp'];
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;

ensureInstalled();
build();
const work = mkdtempSync(join(tmpdir(), 'quarry-footprint-'));
let status = 0;
try {
  const tarballs = packPackages(['core', 'nodes'], join(work, 'tarballs'));
  const project = join(work, 'project');
  newNpmProject(project);
  const seconds = npmInstall(project, [tarballs.core, tarballs.nodes]);
  const base = footprint(join(project, 'node_modules'));
  const scripts = installScripts(project);
  console.log(
    JSON.stringify({
      bench: 'footprint',
      install: '@quarry/core @quarry/nodes',
      mb: mb(base.bytes),
      disk_mb: mb(base.diskBytes),
      packages: base.packages.length,
      install_scripts: scripts,
      install_s: Math.round(seconds),
      limit_mb: FOOTPRINT_LIMIT_MB,
    }),
  );
  for (const p of base.packages.slice(0, 15)) console.log(JSON.stringify({ bench: 'footprint-top', package: p.name, mb: mb(p.bytes) }));
  if (base.bytes > FOOTPRINT_LIMIT_MB * MB || scripts.length > 0) status = 1;

  npmInstall(project, pinnedVersions('nodes', OCR_EXTRAS));
  const ocr = footprint(join(project, 'node_modules'));
  console.log(
    JSON.stringify({
      bench: 'footprint',
      install: `@quarry/core @quarry/nodes ${OCR_EXTRAS.join(' ')}`,
      mb: mb(ocr.bytes),
      disk_mb: mb(ocr.diskBytes),
      packages: ocr.packages.length,
      install_scripts: installScripts(project),
    }),
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);
