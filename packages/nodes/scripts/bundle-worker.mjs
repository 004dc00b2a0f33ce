// Bundles the partition worker (src/pool/partition-worker.ts, what it imports, and the text
// partitioner) into dist/pool/partition-worker.bundle.js, the module that @quarry/nodes' partition
// processes load when it is there. Each `quarry partition` starts a process that loads this graph
// before its first document: some sixty small ES modules, whose resolving and linking cost Node far
// more than one file holding them. The other formats stay modules of their own, imported from their
// built files when a document needs them (`formatsFromTheirFiles`). Run by the build after tsc
// (scripts/lib.mjs, and this package's own build script).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ownImportMetaUrl } from '../../../scripts/bundle-package-entries.mjs';

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(nodesRoot, 'src');
const outfile = join(nodesRoot, 'dist', 'pool', 'partition-worker.bundle.js');

/**
 * An esbuild plugin for the worker bundle: the formats' literal imports (formats/load-format.ts)
 * other than the text partitioner's stay imports of their built files beside the bundle, so the
 * bundle does not carry every format's code and dependencies into each partition process.
 */
function formatsFromTheirFiles(outdir) {
  const loader = join(src, 'partition', 'formats', 'load-format.ts');
  return {
    name: 'formats-from-their-files',
    setup(b) {
      b.onResolve({ filter: /^\.\/.+\.js$/ }, (args) => {
        if (args.importer !== loader || args.kind !== 'dynamic-import' || args.path === './text.js') return undefined;
        const built = relative(outdir, join(nodesRoot, 'dist', 'partition', 'formats', args.path))
          .split(sep)
          .join('/');
        return { path: built.startsWith('.') ? built : `./${built}`, external: true };
      });
    },
  };
}

/** The package root of a file under node_modules (`.../node_modules/@scope/name` or `.../node_modules/name`). */
function packageRoot(file) {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  return parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join(sep);
}

/** Writes the bundle, and beside it the licences of the third-party packages it holds. */
export async function bundleWorker() {
  const result = await build({
    entryPoints: [join(src, 'pool', 'partition-worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Workspace packages from their sources, as the tests run them.
    conditions: ['source'],
    // CommonJS dependencies (debug) require Node's built-in modules.
    banner: { js: "import { createRequire as quarryCreateRequire } from 'node:module';\nconst require = quarryCreateRequire(import.meta.url);" },
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
    plugins: [ownImportMetaUrl(nodesRoot, dirname(outfile), 'the partition worker'), formatsFromTheirFiles(dirname(outfile))],
  });
  const roots = [
    ...new Set(
      Object.keys(result.metafile.inputs)
        .filter((i) => i.includes('node_modules'))
        .map((i) => packageRoot(join(process.cwd(), i))),
    ),
  ].sort();
  const notices = roots.map((root) => {
    const { name, version, license } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const file = readdirSync(root).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    if (!file) throw new Error(`${name} has no licence file to ship with the partition worker bundle`);
    return `${name}@${version} (${license})\n\n${readFileSync(join(root, file), 'utf8').trim()}\n`;
  });
  writeFileSync(`${outfile}.LICENSES.txt`, `Third-party packages in partition-worker.bundle.js\n\n${notices.join('\n---\n\n')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleWorker();
