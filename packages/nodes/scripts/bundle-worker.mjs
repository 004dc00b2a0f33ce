// Bundles the partition worker (src/pool/partition-worker.ts, what it imports, and the text
// partitioner) into dist/pool/partition-worker.bundle.js, the module that @quarry/nodes' partition
// processes load when it is there. Each `quarry partition` starts a process that loads this graph
// before its first document: some sixty small ES modules, whose resolving and linking cost Node far
// more than one file holding them. The other formats are bundled beside it into dist/pool/formats/
// (one file per format and the chunks they share, loaded when a document needs them: the PDF
// partitioner's forty-odd modules are a few files), and the PDF page worker thread's modules into
// dist/partition/formats/pdf/page-worker.bundle.js. Run by the build after tsc (scripts/lib.mjs,
// and this package's own build script).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ownImportMetaUrl, SPLIT_ESM_BUNDLE } from '../../../scripts/bundle-package-entries.mjs';

const nodesRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(nodesRoot, 'src');
const outfile = join(nodesRoot, 'dist', 'pool', 'partition-worker.bundle.js');

const formatsLoader = join(src, 'partition', 'formats', 'load-format.ts');
const formatsOutdir = join(nodesRoot, 'dist', 'pool', 'formats');
const pageWorkerOutfile = join(nodesRoot, 'dist', 'partition', 'formats', 'pdf', 'page-worker.bundle.js');

/** The formats' modules other than the text partitioner's, as load-format.ts imports them ('./pdf/index.js'). */
function formatModules() {
  const text = readFileSync(formatsLoader, 'utf8');
  return [...text.matchAll(/import\('(\.\/[^']+\.js)'\)/g)].map((m) => m[1]).filter((path) => path !== './text.js');
}

/** A format module's file in dist/pool/formats/ ('./pdf/index.js' -> 'pdf-index.js'): entries sit in the folder itself. */
const formatBundleName = (path) => path.slice(2).replace(/\.js$/, '').split('/').join('-');

/**
 * An esbuild plugin for the worker bundle: the formats' literal imports (formats/load-format.ts)
 * other than the text partitioner's stay imports, of their bundles in dist/pool/formats/, so the
 * worker bundle does not carry every format's code and dependencies into each partition process.
 */
function formatsFromTheirFiles(outdir) {
  return {
    name: 'formats-from-their-files',
    setup(b) {
      b.onResolve({ filter: /^\.\/.+\.js$/ }, (args) => {
        if (args.importer !== formatsLoader || args.kind !== 'dynamic-import' || args.path === './text.js') return undefined;
        const built = relative(outdir, join(formatsOutdir, `${formatBundleName(args.path)}.js`))
          .split(sep)
          .join('/');
        return { path: built.startsWith('.') ? built : `./${built}`, external: true };
      });
    },
  };
}

/**
 * Writes dist/pool/formats/: each format but text as one file, and the chunks they share (code
 * splitting). Packages stay imports, as in the built files: a format's modules behave as they do
 * there, one copy of each shared by the formats, apart from the worker bundle's.
 */
async function bundleFormats() {
  rmSync(formatsOutdir, { recursive: true, force: true });
  await build({
    entryPoints: Object.fromEntries(formatModules().map((path) => [formatBundleName(path), join(src, 'partition', 'formats', path.replace(/\.js$/, '.ts'))])),
    ...SPLIT_ESM_BUNDLE,
    outdir: formatsOutdir,
    plugins: [ownImportMetaUrl(nodesRoot, formatsOutdir, 'the partition worker formats')],
  });
}

/** Writes the PDF page worker thread's bundle beside its built module (page-worker-host.ts starts it when present). */
async function bundlePageWorker() {
  await build({
    entryPoints: [join(src, 'partition', 'formats', 'pdf', 'page-worker.ts')],
    outfile: pageWorkerOutfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    plugins: [ownImportMetaUrl(nodesRoot, dirname(pageWorkerOutfile), 'the page worker')],
  });
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await bundleWorker();
  await bundleFormats();
  await bundlePageWorker();
}
