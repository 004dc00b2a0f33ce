/**
 * The packages as a user gets them: `pnpm pack` of each, `npm install` of the tarballs into a plain
 * npm project outside the workspace (no pnpm, no patches, no workspace links), then the READMEs'
 * examples run there with plain `node`. First @quarry/core and @quarry/nodes alone (their install
 * footprint is printed and held under FOOTPRINT_LIMIT_MB, and everything that needs no optional
 * package is checked before any is added), then the connectors, the LangChain and LlamaIndex
 * adapters with the framework versions the monorepo tests against, the server, the distributed
 * runner and the CLI (whose `quarry serve` is started there and asked for its health check).
 *
 * Needs the build (`npm test` builds first). The install takes about 30 s with npm's cache warm.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOOTPRINT_LIMIT_MB, MB, footprint, installScripts, newNpmProject, npmInstall, packPackages, pinnedVersions } from '../../scripts/pack-install.mjs';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const corpus = resolve(repo, '../shared/corpus/docs');
const hasCorpus = existsSync(corpus);
if (!hasCorpus) console.warn(`pack-install: ${corpus} is absent; the PDF and corpus-format checks are skipped`);
const PDF = 'multi-column-2p.pdf';
const PACKED = ['core', 'nodes', 'connectors', 'langchain', 'llamaindex', 'server', 'distributed', 'cli'] as const;
// The install scripts allowed in the full install, each with the prebuilt binary (in node_modules)
// it loads: only without one would it compile and download Node's headers. msgpackr-extract comes
// with bullmq (@quarry/distributed), tree-sitter with llamaindex (a peer of @llamaindex/node-parser).
const PREBUILT: Record<string, string> = {
  'msgpackr-extract': `@msgpackr-extract/msgpackr-extract-${process.platform}-${process.arch}`,
  'tree-sitter': `tree-sitter/prebuilds/${process.platform}-${process.arch}`,
};
type Packed = (typeof PACKED)[number];
// A scanned PDF: no text layer, so fast finds nothing and hi_res must OCR it.
const SCANNED = 'loremipsum-flat.pdf';
const read = (rel: string) => readFileSync(join(repo, rel), 'utf8');

// Type-only syntax stripped, and imports of the repository's test support pointed at the copies
// written beside them: the examples run as the READMEs show them, under plain node.
function writeExample(project: string, from: string, to: string, rewrites: Record<string, string> = {}): void {
  let js = ts.transpileModule(read(from), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  for (const [a, b] of Object.entries(rewrites)) js = js.replaceAll(`'${a}'`, `'${b}'`);
  writeFileSync(join(project, to), js);
}

/** The first ```ts block after `heading` in a README, as the README shows it. */
function readmeBlock(readme: string, heading: string): string {
  const at = readme.indexOf(heading);
  const start = readme.indexOf('```ts\n', at) + '```ts\n'.length;
  return readme.slice(start, readme.indexOf('```', start));
}

/** Runs a script of the project with plain node; its last stdout line is JSON. */
function runNode(project: string, script: string, args: string[] = []): any {
  const r = spawnSync(process.execPath, [join(project, script), ...args], { cwd: project, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`node ${script} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  const lines = r.stdout.trim().split('\n');
  return { result: JSON.parse(lines.at(-1)!), stdout: r.stdout, stderr: r.stderr };
}

// Run with @quarry/core and @quarry/nodes alone, before anything else is installed.
const BASE_SCRIPT = `
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '@quarry/core/logger';
import { createRemoteBackend, findEmbeddingModel, partition, ProviderPool } from '@quarry/nodes';
import { partitionAndChunk } from './nodes-readme-example.mjs';

const caught = (e) => ({ code: e.code, message: e.message, packages: e.details?.packages });
const [corpus, pdf, scanned] = process.argv.slice(2);
const out = {};
try {
  await createRemoteBackend('openai', { api_key: 'sk-test', model_name: 'text-embedding-3-small' }, findEmbeddingModel('openai', 'text-embedding-3-small'), { pool: new ProviderPool(), logger: silentLogger });
  out.openai = 'created';
} catch (e) {
  out.openai = caught(e);
}
if (corpus) {
  const { elements, chunks } = await partitionAndChunk(join(corpus, pdf));
  out.readme = { elements: elements.length, chunks: chunks.length, pages: [...new Set(elements.map((e) => e.metadata.page_number))], texts: elements.map((e) => e.text) };
  out.hiRes = (await partition(join(corpus, pdf), { strategy: 'hi_res' })).length;
  out.scannedHiRes = await partition(join(corpus, scanned), { strategy: 'hi_res' }).then((els) => els.length, caught);
  out.formats = {};
  for (const name of (await readdir(corpus)).sort()) {
    // DA-619p.pdf: 619 pages of a format the other PDFs cover already.
    if (name === 'README.md' || name === 'DA-619p.pdf') continue;
    try {
      const els = await partition(join(corpus, name), { strategy: 'fast' });
      out.formats[name] = { elements: els.length, text: els.some((e) => e.text.trim().length > 0) };
    } catch (e) {
      out.formats[name] = caught(e);
    }
  }
}
console.log(JSON.stringify(out));
`;

const CONSUMER_TS = `
import { createEngine, type Element } from '@quarry/core';
import { chunk, nodesPlugin, partition } from '@quarry/nodes';

const engine = createEngine().use(nodesPlugin);
const elements: Element[] = await partition('report.pdf', { strategy: 'fast' });
const chunks: Element[] = await chunk(elements, 'chunk_by_title', { max_characters: 500 });
console.log(engine !== undefined, chunks.length);
`;

let work: string;
let project: string;
let tarballs: Record<Packed, string>;
let base: ReturnType<typeof footprint>;
let baseScripts: string[];
let fullScripts: string[];
let baseRun: { result: any; stdout: string; stderr: string };
let consumer: { status: number | null; output: string };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'quarry-pack-install-'));
  project = join(work, 'project');
  tarballs = packPackages(PACKED, join(work, 'tarballs'));
  newNpmProject(project);
  const seconds = npmInstall(project, [tarballs.core, tarballs.nodes]);
  base = footprint(join(project, 'node_modules'));
  baseScripts = installScripts(project);
  console.log(
    `npm install @quarry/core @quarry/nodes: ${(base.bytes / MB).toFixed(1)} MB in ${base.packages.length} packages (${(base.diskBytes / MB).toFixed(1)} MB on disk), ${seconds.toFixed(0)} s; largest: ${base.packages
      .slice(0, 5)
      .map((p) => `${p.name} ${(p.bytes / MB).toFixed(1)}`)
      .join(', ')}`,
  );

  writeExample(project, 'packages/nodes/test/readme-example.ts', 'nodes-readme-example.mjs');
  writeFileSync(join(project, 'base.mjs'), BASE_SCRIPT);
  baseRun = runNode(project, 'base.mjs', hasCorpus ? [corpus, PDF, SCANNED] : []);

  // A TypeScript project on Node has its own @types/node; the monorepo's version.
  const rootManifest = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
  npmInstall(project, [`@types/node@${rootManifest.devDependencies['@types/node']}`]);
  writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
  const compilerOptions = {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    strict: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
  const tsc = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
  consumer = { status: tsc.status, output: tsc.stdout + tsc.stderr };

  npmInstall(project, [
    tarballs.connectors,
    tarballs.langchain,
    tarballs.llamaindex,
    tarballs.server,
    tarballs.distributed,
    tarballs.cli,
    ...pinnedVersions('langchain', ['@langchain/core', '@langchain/classic']),
    ...pinnedVersions('llamaindex', ['llamaindex']),
  ]);
  fullScripts = installScripts(project);
  writeExample(project, 'examples/stream-documents.ts', 'stream-documents.mjs');
  writeExample(project, 'packages/nodes/test/support/bag-of-words.ts', 'bag-of-words.mjs');
  writeExample(project, 'packages/langchain/test/readme-example.ts', 'langchain-example.mjs');
  writeExample(project, 'packages/langchain/test/support/word-embeddings.ts', 'word-embeddings.mjs', {
    '../../../nodes/test/support/bag-of-words.js': './bag-of-words.mjs',
  });
  writeExample(project, 'packages/llamaindex/test/readme-example.ts', 'llamaindex-example.mjs');
  writeExample(project, 'packages/llamaindex/test/support/word-embedding.ts', 'word-embedding.mjs', {
    '../../../nodes/test/support/bag-of-words.js': './bag-of-words.mjs',
  });
  // The documents the stream and library examples read: the example documents, and a corpus PDF.
  const docs = join(project, 'docs');
  mkdirSync(docs);
  for (const e of readdirSync(join(repo, 'examples/docs'), { withFileTypes: true }))
    if (e.isFile()) copyFileSync(join(repo, 'examples/docs', e.name), join(docs, e.name));
  if (hasCorpus) copyFileSync(join(corpus, PDF), join(docs, PDF));
}, 900_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 300_000);

describe('the packed packages, installed with npm into a plain project', () => {
  it('publish every export of the workspace manifest, types first, each pointing at a file in the tarball', () => {
    for (const name of PACKED) {
      const files = new Set(spawnSync('tar', ['-tzf', tarballs[name]], { encoding: 'utf8' }).stdout.trim().split('\n'));
      const packed = JSON.parse(spawnSync('tar', ['-xzOf', tarballs[name], 'package/package.json'], { encoding: 'utf8' }).stdout) as {
        exports: Record<string, Record<string, string>>;
        engines: { node: string };
      };
      const workspace = JSON.parse(read(`packages/${name}/package.json`)) as { exports: Record<string, unknown> };
      expect(Object.keys(packed.exports), name).toEqual(Object.keys(workspace.exports));
      expect(packed.engines.node, name).toBe('>=20.19');
      for (const [subpath, conditions] of Object.entries(packed.exports)) {
        expect(Object.keys(conditions), `${name} ${subpath}`).toEqual(['types', 'default']);
        for (const target of Object.values(conditions)) expect(files, `${name} ${subpath} ${target}`).toContain(`package/${target.slice(2)}`);
      }
      expect(files, name).toContain('package/LICENSE');
    }
  });

  it(`installs @quarry/core and @quarry/nodes within ${FOOTPRINT_LIMIT_MB} MB, with no install script`, () => {
    expect(base.bytes / MB).toBeLessThanOrEqual(FOOTPRINT_LIMIT_MB);
    expect(baseScripts).toEqual([]);
    const names = base.packages.map((p) => p.name);
    for (const absent of [
      'openai',
      '@anthropic-ai/sdk',
      '@google/genai',
      '@aws-sdk/client-bedrock-runtime',
      '@huggingface/transformers',
      'onnxruntime-node',
      'tiktoken',
      'tesseract.js',
      '@napi-rs/canvas',
      'sharp',
      'pdfjs-dist',
    ]) {
      expect(names).not.toContain(absent);
    }
  });

  it('fails an openai embedder without openai installed with OPTIONAL_DEPENDENCY_MISSING naming it', () => {
    expect(baseRun.result.openai).toEqual({
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message: 'the openai embedder needs openai and tiktoken; openai is not installed: npm install openai tiktoken',
      packages: ['openai', 'tiktoken'],
    });
  });

  it('compiles a TypeScript consumer against the installed declarations with skipLibCheck off', () => {
    expect(consumer.output).toBe('');
    expect(consumer.status).toBe(0);
  });

  it.skipIf(!hasCorpus)('partitions a PDF with the nodes README example (fast) and with hi_res, with no optional package and no pdf.js warning', () => {
    const { readme, hiRes } = baseRun.result;
    expect(readme.pages).toEqual([1, 2]);
    expect(readme.texts).toContain('Dense Passage Retrieval for Open-Domain Question Answering');
    expect(readme.chunks).toBeGreaterThan(5);
    expect(hiRes).toBeGreaterThan(20);
    expect(baseRun.stderr).toBe('');
  });

  it.skipIf(!hasCorpus)('partitions every corpus format with the fast strategy; images name the packages OCR needs', () => {
    const formats: Record<string, { elements?: number; text?: boolean; code?: string; packages?: string[] }> = baseRun.result.formats;
    const images = Object.keys(formats).filter((n) => /\.(png|jpe?g|tiff?|bmp|gif|webp)$/i.test(n));
    expect(images.length).toBeGreaterThan(0);
    for (const [name, r] of Object.entries(formats)) {
      if (name === SCANNED) {
        expect(r, name).toMatchObject({ elements: 0 });
      } else if (images.includes(name)) {
        expect(r, name).toMatchObject({
          code: 'OPTIONAL_DEPENDENCY_MISSING',
          packages: ['sharp', '@napi-rs/canvas', 'tesseract.js', '@tesseract.js-data/eng', '@tesseract.js-data/osd'],
        });
      } else {
        expect(r, name).toMatchObject({ text: true });
      }
    }
  });

  it.skipIf(!hasCorpus)('fails hi_res on a scanned PDF with OPTIONAL_DEPENDENCY_MISSING naming what OCR of PDF pages needs', () => {
    expect(baseRun.result.scannedHiRes).toMatchObject({
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message:
        'OCR of PDF pages needs @napi-rs/canvas, tesseract.js, @tesseract.js-data/eng and @tesseract.js-data/osd; @napi-rs/canvas is not installed: npm install @napi-rs/canvas tesseract.js @tesseract.js-data/eng @tesseract.js-data/osd',
      packages: ['@napi-rs/canvas', 'tesseract.js', '@tesseract.js-data/eng', '@tesseract.js-data/osd'],
    });
  });

  it('runs the root README library example (engine.run from a folder into a folder)', () => {
    const example = readmeBlock(read('README.md'), '## Use it as a library');
    writeFileSync(
      join(project, 'library.mjs'),
      `${ts.transpileModule(example, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText}\nconsole.log(JSON.stringify(summary));\n`,
    );
    const { result } = runNode(project, 'library.mjs');
    const documents = readdirSync(join(project, 'docs')).length;
    expect(result).toMatchObject({ status: 'COMPLETED', counts: { written: documents, failed: 0 } });
    const written = readdirSync(join(project, 'out'));
    expect(written).toHaveLength(documents);
    if (hasCorpus) {
      const pdf = JSON.parse(readFileSync(join(project, 'out', written.find((f) => f.startsWith(PDF))!), 'utf8'));
      expect(pdf.map((e: { text: string }) => e.text)).toContain('Dense Passage Retrieval for Open-Domain Question Answering');
    }
  });

  it('streams a folder through partition and chunk_by_title with for await (examples/stream-documents.ts, quoted by the README)', () => {
    expect(read('README.md')).toContain(read('examples/stream-documents.ts'));
    writeFileSync(
      join(project, 'stream.mjs'),
      `import { chunkTexts } from './stream-documents.mjs';\nconsole.log(JSON.stringify(Object.fromEntries(await chunkTexts(process.argv[2]))));\n`,
    );
    const { result, stderr } = runNode(project, 'stream.mjs', [join(project, 'docs')]);
    expect(stderr).not.toContain('failed in');
    const texts = result as Record<string, string[]>;
    expect(Object.keys(texts).sort()).toEqual(readdirSync(join(project, 'docs')).sort());
    expect(texts['field-guide.md']![0]).toMatch(/^Quarry Field Guide/);
    expect(Object.values(texts).every((t) => t.length > 0 && t.every((s) => s.length <= 500))).toBe(true);
    if (hasCorpus) expect(texts[PDF]![0]).toContain('Dense Passage Retrieval for Open-Domain Question Answering');
  });

  it('loads a folder through QuarryLoader and retrieves with @langchain/core (the langchain README example)', () => {
    expect(read('packages/langchain/README.md')).toContain(read('packages/langchain/test/readme-example.ts'));
    writeFileSync(
      join(project, 'langchain.mjs'),
      `import { retrieve } from './langchain-example.mjs';\nimport { WordEmbeddings } from './word-embeddings.mjs';\nconst { hits, failures } = await retrieve(process.argv[2], 'which chunking strategy splits on pages?', new WordEmbeddings());\nconsole.log(JSON.stringify({ hits, failures }));\n`,
    );
    const guide = join(project, 'docs', 'field-guide.md');
    const { hits, failures } = runNode(project, 'langchain.mjs', [join(project, 'docs')]).result as {
      hits: { pageContent: string; metadata: Record<string, unknown> }[];
      failures: unknown[];
    };
    expect(failures).toEqual([]);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.pageContent).toContain('chunk_by_page no yes');
    expect(hits[0]!.metadata).toMatchObject({ filename: 'field-guide.md', type: 'Table', source: guide });
  });

  it('reads a folder through QuarryReader and retrieves with LlamaIndex.TS (the llamaindex README example)', () => {
    expect(read('packages/llamaindex/README.md')).toContain(read('packages/llamaindex/test/readme-example.ts'));
    writeFileSync(
      join(project, 'llamaindex.mjs'),
      `import { retrieve } from './llamaindex-example.mjs';\nimport { WordEmbedding } from './word-embedding.mjs';\nconst { hits, failures } = await retrieve(process.argv[2], 'which chunking strategy splits on pages?', new WordEmbedding());\nconsole.log(JSON.stringify({ failures, hits: hits.map((h) => ({ text: h.node.text, metadata: h.node.metadata, score: h.score })) }));\n`,
    );
    const guide = join(project, 'docs', 'field-guide.md');
    const { hits, failures } = runNode(project, 'llamaindex.mjs', [join(project, 'docs')]).result as {
      hits: { text: string; metadata: Record<string, unknown>; score: number }[];
      failures: unknown[];
    };
    expect(failures).toEqual([]);
    expect(hits).toHaveLength(2);
    expect(hits[0]!.text).toContain('chunk_by_page no yes');
    expect(hits[0]!.metadata).toMatchObject({ filename: 'field-guide.md', type: 'Table', source: guide, file_path: guide, file_name: 'field-guide.md' });
  });

  // The adapters as a RAG team uses them: @langchain/community installed beside with a plain npm
  // install (it pulls openai 7 through @langchain/openai), then a folder with a sub-folder, a folder
  // to exclude and a file that fails, read by both adapters in every mode.
  it('installs @langchain/community beside quarry, and loads a folder with QuarryLoader and QuarryReader: modes, failures, framework metadata', () => {
    // A project of its own: the main one also holds @langchain/classic, whose @langchain/openai wants
    // openai 7 where community's stagehand peer wants openai 4, a conflict between LangChain's own
    // packages that no range of ours can settle. Quarry and community: one plain npm install.
    const beside = join(work, 'beside-community');
    newNpmProject(beside);
    npmInstall(beside, [
      tarballs.core,
      tarballs.nodes,
      tarballs.langchain,
      tarballs.llamaindex,
      ...pinnedVersions('langchain', ['@langchain/core']),
      ...pinnedVersions('llamaindex', ['llamaindex']),
      '@langchain/community@1.1.29',
    ]);
    const ls = spawnSync('npm', ['ls', '@langchain/community', '@langchain/core', 'openai', 'llamaindex'], { cwd: beside, encoding: 'utf8' });
    expect(ls.stderr).toBe('');
    expect(ls.status).toBe(0);
    expect(ls.stdout).toMatch(/@langchain\/community@1\.1\.29/);

    const dir = join(work, 'adapter-docs');
    mkdirSync(join(dir, 'notes'), { recursive: true });
    mkdirSync(join(dir, 'drafts'));
    copyFileSync(join(repo, 'examples/docs/field-guide.md'), join(dir, 'field-guide.md'));
    copyFileSync(join(repo, 'examples/docs/quarterly-notes.html'), join(dir, 'notes', 'quarterly-notes.html'));
    copyFileSync(join(repo, 'examples/docs/release-checklist.txt'), join(dir, 'drafts', 'release-checklist.txt'));
    writeFileSync(join(dir, 'notes', 'empty.txt'), '');
    if (hasCorpus) copyFileSync(join(corpus, PDF), join(dir, PDF));
    writeFileSync(
      join(beside, 'adapters.mjs'),
      `
import { QuarryLoader } from '@quarry/langchain';
import { QuarryReader } from '@quarry/llamaindex';
const dir = process.argv[2];
const warnings = [];
console.warn = (m) => warnings.push(m);
const out = { warnings };
const lc = new QuarryLoader(dir, { exclude: ['drafts'] });
const pages = await lc.load();
out.lcPaged = pages.map((d) => ({ source: d.metadata.source, loc: d.metadata.loc, id: d.id, length: d.pageContent.length }));
out.lcFailures = lc.failures.map((f) => [f.source, f.error.code]);
for (const mode of ['single', 'elements', 'chunks']) out['lc_' + mode] = (await new QuarryLoader(dir, { exclude: ['drafts'], mode }).load()).map((d) => ({ source: d.metadata.source, type: d.metadata.type ?? null, length: d.pageContent.length }));
out.lcThrow = await new QuarryLoader(dir, { onFailure: 'throw' }).load().then(() => 'loaded', (e) => e.code);
const li = new QuarryReader({ include: ['*.md', '*.txt', '*.pdf'], exclude: ['drafts'], mode: 'paged' });
out.liPaged = (await li.loadData([dir])).map((d) => ({ file_name: d.metadata.file_name, file_path: d.metadata.file_path, page_label: d.metadata.page_label ?? null }));
out.liFailures = li.failures.map((f) => [f.source, f.error.code]);
const handed = [];
out.liChunks = (await new QuarryReader({ mode: 'chunks', onFailure: (d) => handed.push(d.source) }).loadData(dir)).length;
out.liHanded = handed;
console.log(JSON.stringify(out));
`,
    );
    const { result } = runNode(beside, 'adapters.mjs', [dir]);
    const empty = join(dir, 'notes', 'empty.txt');
    const guide = join(dir, 'field-guide.md');
    const html = join(dir, 'notes', 'quarterly-notes.html');
    // Paged: one Document per page of the PDF (with loc.pageNumber), one per file without pages; the empty file skipped and reported.
    expect(result.lcPaged.map((d: { source: string; loc?: { pageNumber: number } }) => [d.source, d.loc?.pageNumber ?? null])).toEqual([
      [guide, null],
      ...(hasCorpus
        ? [
            [join(dir, PDF), 1],
            [join(dir, PDF), 2],
          ]
        : []),
      [html, null],
    ]);
    expect(result.lcFailures).toEqual([[empty, 'FILE_EMPTY']]);
    // Warned once by each load that skipped it: four QuarryLoader loads and one QuarryReader read.
    expect(result.warnings.filter((w: string) => w.startsWith(`quarry: skipped ${empty}: FILE_EMPTY`))).toHaveLength(5);
    expect(result.lc_single.map((d: { source: string }) => d.source)).toEqual([guide, ...(hasCorpus ? [join(dir, PDF)] : []), html]);
    expect(result.lc_elements.some((d: { type: string }) => d.type === 'Title')).toBe(true);
    expect(
      result.lc_chunks.every((d: { type: string; length: number }) => ['CompositeElement', 'Table', 'TableChunk'].includes(d.type) && d.length <= 500),
    ).toBe(true);
    expect(result.lcThrow).toBe('FILE_EMPTY');
    expect(result.liPaged).toEqual([
      { file_name: 'field-guide.md', file_path: guide, page_label: null },
      ...(hasCorpus ? [1, 2].map((n) => ({ file_name: PDF, file_path: join(dir, PDF), page_label: String(n) })) : []),
    ]);
    expect(result.liFailures).toEqual([[empty, 'FILE_EMPTY']]);
    expect(result.liChunks).toBeGreaterThan(5);
    expect(result.liHanded).toEqual([empty]);
  }, 900_000);

  it('installs the server, the distributed runner and the CLI with no install script but those that load a prebuilt binary', () => {
    expect(fullScripts.filter((p) => !(p in PREBUILT))).toEqual([]);
    for (const p of fullScripts) expect(existsSync(join(project, 'node_modules', PREBUILT[p]!)), PREBUILT[p]).toBe(true);
  });

  it('runs `quarry --help` and `quarry serve`, whose health check answers on a free loopback port', async () => {
    const help = spawnSync('npx', ['--no-install', 'quarry', '--help'], { cwd: project, encoding: 'utf8' });
    expect(help.stderr).not.toMatch(/error/i);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('serve');

    const serve = spawn(join(project, 'node_modules/.bin/quarry'), ['serve', '--port', '0', '--host', '127.0.0.1', '--data-dir', join(work, 'serve-data')], {
      cwd: project,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        serve.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          const m = /listening on (http:\/\/\S+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        serve.on('exit', (code) => reject(new Error(`quarry serve exited with ${code}:\n${stderr}`)));
      });
      // The banner names the workflow API (`.../api/v1`); the health check is at the root.
      const res = await fetch(new URL('/healthcheck', url));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ healthcheck: 'HEALTHCHECK STATUS: EVERYTHING OK!' });
    } finally {
      serve.kill('SIGTERM');
      if (serve.exitCode === null) await once(serve, 'exit');
    }
    expect(serve.exitCode).toBe(0);
  }, 120_000);

  it.skipIf(!hasCorpus)(
    'runs `quarry inspect` on a text PDF with no canvas or sharp installed: pages pictured by PDFium as PNG',
    () => {
      for (const absent of ['@napi-rs/canvas', 'sharp']) expect(existsSync(join(project, 'node_modules', absent)), absent).toBe(false);
      const report = join(work, 'inspect.html');
      const r = spawnSync(join(project, 'node_modules/.bin/quarry'), ['inspect', join(corpus, PDF), '--strategy', 'fast', '--output', report], {
        cwd: project,
        encoding: 'utf8',
      });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('warning');
      const html = readFileSync(report, 'utf8');
      expect(html.match(/<img src="data:image\/png;base64,/g)).toHaveLength(2);
      expect(html).toContain('class="box"');
    },
    120_000,
  );

  it.skipIf(!hasCorpus)(
    'OCRs a scanned PDF (hi_res) and an image once the OCR packages are installed beside it',
    () => {
      npmInstall(project, pinnedVersions('nodes', ['@napi-rs/canvas', 'sharp', 'tesseract.js', '@tesseract.js-data/eng', '@tesseract.js-data/osd']));
      writeFileSync(
        join(project, 'ocr.mjs'),
        `import { partition } from '@quarry/nodes';\nconst [pdf, png] = process.argv.slice(2);\nconst text = async (p, o) => (await partition(p, o)).map((e) => e.text).join(' ');\nconsole.log(JSON.stringify({ pdf: await text(pdf, { strategy: 'hi_res' }), png: await text(png) }));\n`,
      );
      const { result } = runNode(project, 'ocr.mjs', [join(corpus, SCANNED), join(corpus, 'table-multi-row-column-cells.png')]);
      expect(result.pdf).toMatch(/^Lorem ipsum dolor sit amet, consectetur adipiscing elit/);
      expect(result.png).toContain('Participants');
    },
    300_000,
  );
});
