// Bundles this package's entries (its `exports`: `.`, `./errors`, `./element`, ...) into
// dist/bundle/, the files the built package's `exports` point at. `import('@quarry/core')` loaded
// some forty small ES modules, and resolving and linking them cost Node about as much as their
// code: esbuild writes each entry's graph as a few files, and code splitting keeps every `import()`
// a chunk loaded when first needed. Entries and chunks sit in one folder, so the entries share one
// copy of each module (one QuarryError class for `@quarry/core` and `@quarry/core/errors`).
// Third-party packages stay imports; types come from tsc's dist/*.d.ts. Run by the build after tsc
// (scripts/lib.mjs at the repository's root).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const coreRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(coreRoot, 'src');
const outdir = join(coreRoot, 'dist', 'bundle');

/** Each bundled entry (named after its file in dist/bundle/) and the source it starts from. */
export function bundledEntries() {
  const { exports } = JSON.parse(readFileSync(join(coreRoot, 'package.json'), 'utf8'));
  const entries = {};
  for (const { source, default: built } of Object.values(exports)) {
    const name = relative('./dist/bundle', built).replace(/\.js$/, '');
    if (name.includes('/') || name.startsWith('.')) throw new Error(`package.json exports ${built}: an entry's default must be a file of dist/bundle/`);
    entries[name] = join(coreRoot, source);
  }
  return entries;
}

/**
 * Each bundled module keeps its own `import.meta.url` (the built file it stands for), so the paths
 * it makes beside itself (the process pool's entry module) and its createRequire resolve as
 * unbundled. `import.meta.resolve` of a package name resolves alike from dist/bundle/; anything
 * else that reads `import.meta` fails the build.
 */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const built = relative(outdir, join(coreRoot, 'dist', relative(src, args.path)))
        .replace(/\.ts$/, '.js')
        .split(sep)
        .join('/');
      const contents = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(built)}, import.meta.url).href`);
      if (/import\.meta(?!\.url|\.resolve\('[^.])/.test(contents)) throw new Error(`${args.path} reads import.meta beyond its url: it cannot be bundled`);
      return { contents, loader: 'ts' };
    });
  },
};

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
    plugins: [ownImportMetaUrl],
  });
  const foreign = Object.keys(result.metafile.inputs).filter((i) => !join(process.cwd(), i).startsWith(src + sep));
  if (foreign.length) throw new Error(`the entries bundle holds files from outside src/: ${foreign.join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleEntries();
