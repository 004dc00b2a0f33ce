// Bundles a workspace package's entries (its `exports`) into its dist/bundle/, the files the built
// package's `exports` point at: importing @quarry/core loaded some forty small ES modules, and
// @quarry/nodes some hundred, whose resolving and linking cost Node as much as their code or more.
// esbuild writes each entry's eager graph as a few files, and code splitting keeps every `import()`
// a chunk loaded when first needed. Entries and chunks sit in one folder, so the entries share one
// copy of each module (one QuarryError class for `@quarry/core` and `@quarry/core/errors`).
// Packages (workspace and third-party) stay imports; types come from tsc's dist/*.d.ts. Run after
// tsc by scripts/lib.mjs and by each bundled package's own build script:
// `node scripts/bundle-package-entries.mjs <package folder>`.
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * An esbuild plugin for bundles written into `outdir`: each module of the package at `root` keeps
 * its own `import.meta.url` (the built file it stands for), so the paths it makes beside itself
 * (vendor/, format modules, the process pool's entry module) and its createRequire resolve as they
 * do unbundled. `import.meta.resolve` of a package name resolves alike from the bundle's folder;
 * any other reading of `import.meta`, or a module from outside the package's src/ that reads it,
 * fails the build. `outdir` must hold every output file (entries and chunks alike).
 */
export function ownImportMetaUrl(root, outdir, what) {
  const src = join(root, 'src');
  return {
    name: 'own-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.(ts|m?js|cjs)$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        if (!args.path.startsWith(src + sep)) throw new Error(`${args.path} reads import.meta: it cannot be bundled into ${what}`);
        const built = relative(outdir, join(root, 'dist', relative(src, args.path)))
          .replace(/\.ts$/, '.js')
          .split(sep)
          .join('/');
        const contents = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(built)}, import.meta.url).href`);
        if (/import\.meta(?!\.url|\.resolve\('[^.])/.test(contents))
          throw new Error(`${args.path} reads import.meta beyond its url: it cannot be bundled into ${what}`);
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Each bundled entry of the package at `root` (named after its file in dist/bundle/) and the source it starts from. */
function bundledEntries(root) {
  const { exports } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const entries = {};
  for (const { source, default: built } of Object.values(exports)) {
    const name = relative('./dist/bundle', built).replace(/\.js$/, '');
    if (name.includes('/') || name.startsWith('.')) throw new Error(`package.json exports ${built}: an entry's default must be a file of dist/bundle/`);
    entries[name] = join(root, source);
  }
  return entries;
}

/** esbuild's settings for a package's ES module bundles: shared chunks split out, packages left as imports. */
export const SPLIT_ESM_BUNDLE = {
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};

/** Writes `root`/dist/bundle/: one file per entry and the chunks they share. */
export async function bundleEntries(root) {
  const outdir = join(root, 'dist', 'bundle');
  const src = join(root, 'src');
  // esbuild is each bundled package's own dev dependency, not the repository root's.
  const { build } = createRequire(join(root, 'package.json'))('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    ...SPLIT_ESM_BUNDLE,
    entryPoints: bundledEntries(root),
    outdir,
    metafile: true,
    plugins: [ownImportMetaUrl(root, outdir, "the package's entries")],
  });
  const foreign = Object.keys(result.metafile.inputs).filter((i) => !join(process.cwd(), i).startsWith(src + sep));
  if (foreign.length) throw new Error(`the entries bundle holds files from outside src/: ${foreign.join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.argv[2]) throw new Error('usage: node scripts/bundle-package-entries.mjs <package folder>');
  await bundleEntries(resolve(process.argv[2]));
}
