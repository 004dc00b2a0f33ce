import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { partition } from '../../src/index.js';

// The build bundles the package's entries (scripts/bundle-package-entries.mjs at the repository root) and the built package's
// `exports` point at dist/bundle/: each entry must export what its module does, and the bundled
// code must find what it locates beside its module (vendor/, WebAssembly, the format modules,
// the worker bundle), run by plain Node as a user's process runs it.
const nodesRoot = fileURLToPath(new URL('../../', import.meta.url));
const bundleDir = path.join(nodesRoot, 'dist/bundle');
const corpusDocs = path.resolve(nodesRoot, '../../../shared/corpus/docs');
const built = existsSync(path.join(bundleDir, 'index.js')) && existsSync(path.join(nodesRoot, 'dist/index.js'));
const pkg = JSON.parse(readFileSync(path.join(nodesRoot, 'package.json'), 'utf8')) as {
  exports: Record<string, { source: string; default: string }>;
  publishConfig: { exports: Record<string, { default: string }> };
};
const DOCS = ['multi-column-2p.pdf', 'handbook-1p.docx', 'example-10k-1p.html'];

/** Runs an ES module script with plain Node from the package folder; returns its stdout. */
function node(script: string): string {
  return nodeRun(script).stdout;
}

function nodeRun(script: string, flags: string[] = []): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { cwd: nodesRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`node exited with ${r.status}: ${r.stderr}`);
  return r;
}

// Module hooks that write the URL of each file the process loads to its standard error.
const loadHooks = `import { writeSync } from 'node:fs';
export async function load(url, context, next) {
  if (url.startsWith('file:')) writeSync(2, 'loaded ' + url + '\\n');
  return next(url, context);
}`;
const recordLoads = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loadHooks)}`)});`;

const exportNames = (file: string): string[] =>
  JSON.parse(node(`const m = await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(JSON.stringify(Object.keys(m).sort()));`)) as string[];

describe.runIf(built)("the bundle of the package's entries", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-entries-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is what every entry of the built package points at, published or not', () => {
    for (const [sub, entry] of Object.entries(pkg.exports)) {
      expect([sub, path.dirname(entry.default)]).toEqual([sub, './dist/bundle']);
      expect(pkg.publishConfig.exports[sub]!.default).toBe(entry.default);
    }
  });

  it('exports the names of each entry module', () => {
    for (const entry of Object.values(pkg.exports)) {
      const module = path.join(nodesRoot, entry.source.replace(/^\.\/src\//, 'dist/').replace(/\.ts$/, '.js'));
      const names = exportNames(path.join(nodesRoot, entry.default));
      expect(names.length).toBeGreaterThan(0);
      expect(names).toEqual(exportNames(module));
    }
  });

  it('partitions as the sources do, every format through its own chunks', async () => {
    const files: string[] = [];
    const write = (name: string, bytes: Uint8Array): void => {
      writeFileSync(path.join(dir, name), bytes);
      files.push(path.join(dir, name));
    };
    // A plural and a past tense send the tagger to its packed dictionaries in vendor/; Latin-1 needs iconv-lite.
    write('plurals.txt', new TextEncoder().encode('The geese flew over the houses.\n\nZxqv Blorptastic\n'));
    write('latin1.txt', Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const present = DOCS.filter((d) => existsSync(path.join(corpusDocs, d)));
    if (present.length < DOCS.length) console.warn(`shared corpus absent (${corpusDocs}): comparing generated text only`);
    for (const name of present) files.push(path.join(corpusDocs, name));
    const options = { strategy: 'fast', unique_element_ids: false } as const;
    const script = `const { partition } = await import('@quarry/nodes');
      const out = [];
      for (const file of ${JSON.stringify(files)}) out.push(await partition(file, ${JSON.stringify(options)}));
      if (${present.includes('multi-column-2p.pdf')}) out.push(await partition(${JSON.stringify(path.join(corpusDocs, 'multi-column-2p.pdf'))}, { ...${JSON.stringify(options)}, pdf_engine: 'pdfjs' }));
      console.log(JSON.stringify(out));`;
    // @quarry/nodes resolves to the package itself, through its `exports`: the bundle.
    const fromBundle = JSON.parse(node(script)) as unknown[][];
    const fromSources: unknown[][] = [];
    for (const file of files) fromSources.push(JSON.parse(JSON.stringify(await partition(file, options))) as unknown[]);
    if (present.includes('multi-column-2p.pdf'))
      fromSources.push(
        JSON.parse(JSON.stringify(await partition(path.join(corpusDocs, 'multi-column-2p.pdf'), { ...options, pdf_engine: 'pdfjs' }))) as unknown[],
      );
    expect(fromBundle).toEqual(fromSources);
    expect(fromBundle.every((elements) => elements.length > 0)).toBe(true);
  }, 120_000);

  // The formats are chunks of the bundle: a PDF loads no second copy of what the bundle holds
  // (classifiers, the tagger) from the package's unbundled modules, nor PDFium's Emscripten glue.
  it.runIf(existsSync(path.join(corpusDocs, 'multi-column-2p.pdf')))('partitions a PDF with modules of the bundle only', () => {
    const { stderr } = nodeRun(
      `const { partition } = await import('@quarry/nodes'); await partition(${JSON.stringify(path.join(corpusDocs, 'multi-column-2p.pdf'))});`,
      ['--import', `data:text/javascript,${encodeURIComponent(recordLoads)}`],
    );
    const loaded = stderr
      .split('\n')
      .filter((l) => l.startsWith('loaded '))
      .map((l) => fileURLToPath(l.slice('loaded '.length)));
    const own = loaded.filter((f) => f.startsWith(path.join(nodesRoot, 'dist')));
    expect(own.length).toBeGreaterThan(1);
    expect(own.filter((f) => path.dirname(f) !== bundleDir)).toEqual([]);
    expect(loaded.filter((f) => f.includes(`${path.sep}@hyzyla${path.sep}`))).toEqual([]);
  });

  it("starts built pools on the partition worker's bundle", () => {
    const url = node(`const { partitionWorkerUrl } = await import('@quarry/nodes/pool'); console.log(partitionWorkerUrl().href);`).trim();
    expect(url).toBe(pathToFileURL(path.join(nodesRoot, 'dist/pool/partition-worker.bundle.js')).href);
  });
});

describe.skipIf(built)("the bundle of the package's entries (not built)", () => {
  it('is checked once the build has made it', () => {
    console.warn('packages/nodes/dist has no entries bundle: run node scripts/build.mjs');
  });
});
