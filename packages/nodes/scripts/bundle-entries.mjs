// Bundles this package's entries (its `exports`: `.`, `./pool`, `./testing`) into dist/bundle/,
// the files the built package's `exports` point at. Importing the package loaded some hundred
// small ES modules of its own, and resolving and linking them cost Node more than their code:
// esbuild writes the eager graph of each entry as a few files, and code splitting keeps every
// `import()` a chunk of its own, loaded when first needed as before. Every entry and chunk sit in
// one folder, so the entries share one copy of each module. Packages (@quarry/core, third-party
// code) stay imports. Types still come from tsc's dist/*.d.ts. Run by the build after tsc
// (scripts/lib.mjs, and this package's own build script).
import { readFileSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { nodesRoot, ownImportMetaUrl, src } from './bundle-worker.mjs';

const outdir = join(nodesRoot, 'dist', 'bundle');

/** Each bundled entry (named after its file in dist/bundle/) and the source it starts from. */
export function bundledEntries() {
  const { exports } = JSON.parse(readFileSync(join(nodesRoot, 'package.json'), 'utf8'));
  const entries = {};
  for (const { source, default: built } of Object.values(exports)) {
    const name = relative('./dist/bundle', built).replace(/\.js$/, '');
    if (name.includes('/') || name.startsWith('.')) throw new Error(`package.json exports ${built}: an entry's default must be a file of dist/bundle/`);
    entries[name] = join(nodesRoot, source);
  }
  return entries;
}

/** Writes dist/bundle/: one file per entry and the chunks they share. */
export async function bundleEntries() {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: bundledEntries(),
    outdir,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    metafile: true,
    logLevel: 'warning',
    plugins: [ownImportMetaUrl(outdir, "the package's entries")],
  });
  const foreign = Object.keys(result.metafile.inputs).filter((i) => !join(process.cwd(), i).startsWith(src + sep));
  if (foreign.length) throw new Error(`the entries bundle holds files from outside src/: ${foreign.join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleEntries();
