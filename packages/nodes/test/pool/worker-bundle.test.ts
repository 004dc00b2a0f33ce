import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { WorkerWarmUp } from '@quarry/core/process-pool';
import { describe, expect, it } from 'vitest';
import { PartitionPool } from '../../src/pool/partition-pool.js';

// The build bundles the partition worker (scripts/bundle-worker.mjs) and built pools run the
// bundle: it must partition exactly as the worker module does, text (bundled) and the formats it
// imports from their own files alike.
const nodesRoot = fileURLToPath(new URL('../../', import.meta.url));
const bundle = path.join(nodesRoot, 'dist/pool/partition-worker.bundle.js');
const corpusDocs = path.resolve(nodesRoot, '../../../shared/corpus/docs');
const built = existsSync(bundle) && existsSync(path.join(nodesRoot, 'dist/partition/formats/pdf/index.js'));
const DOCS = [
  'UDHR_first_article_all.txt',
  'codeblock.md',
  'example-10k-1p.html',
  'fake-email-attachment.eml',
  'handbook-1p.docx',
  'multi-column-2p.pdf',
  'stanley-cups.csv',
];

/** Each document's elements from a one-process pool running `workerUrl`, as JSON. */
async function partitionAll(workerUrl: URL, docs: Array<{ name: string; bytes: Uint8Array }>): Promise<string[]> {
  const pool = new PartitionPool({ workerUrl, size: 1 });
  try {
    const out: string[] = [];
    for (const { name, bytes } of docs) out.push(JSON.stringify(await pool.partition(bytes, { filename: name, strategy: 'fast', unique_element_ids: false })));
    return out;
  } finally {
    await pool.close();
  }
}

describe.runIf(built)('the partition worker bundle', () => {
  it('is the worker of built pools', async () => {
    const { partitionWorkerUrl } = (await import(pathToFileURL(path.join(nodesRoot, 'dist/pool/partition-pool.js')).href)) as { partitionWorkerUrl: () => URL };
    expect(partitionWorkerUrl().href).toBe(pathToFileURL(bundle).href);
  });

  it('warms up from the built warm-up module beside it', async () => {
    const { warmUp } = (await import(pathToFileURL(bundle).href)) as { warmUp?: WorkerWarmUp };
    expect(typeof warmUp).toBe('function');
    // As a pool process calls it: nothing else runs there. Light: no OCR engine kept in this process.
    await expect(warmUp!(() => Promise.resolve(), { light: true })).resolves.toBeUndefined();
    expect(readFileSync(bundle, 'utf8')).not.toContain('warmUpSamples');
    // It warms the bundle's own partitioner: a copy of partition-file.js imported by the warm-up
    // module would be warmed instead, and the tasks' copy left cold.
    expect(readFileSync(path.join(nodesRoot, 'dist/pool/warm-up.js'), 'utf8')).not.toContain('partition-file');
  }, 60_000);

  it('partitions as the worker module does', async () => {
    const enc = new TextEncoder();
    const docs = [
      { name: 'note.txt', bytes: enc.encode('hello\n') },
      { name: 'plurals.txt', bytes: enc.encode('The geese flew over the houses.\n\nZxqv Blorptastic\n') },
      { name: 'latin1.txt', bytes: Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) },
    ];
    const present = DOCS.filter((d) => existsSync(path.join(corpusDocs, d)));
    if (present.length < DOCS.length) console.warn('shared corpus absent: comparing generated text only');
    for (const name of present) docs.push({ name, bytes: readFileSync(path.join(corpusDocs, name)) });
    const fromBundle = await partitionAll(pathToFileURL(bundle), docs);
    const fromModules = await partitionAll(new URL('../../src/pool/partition-worker.ts', import.meta.url), docs);
    expect(fromBundle).toEqual(fromModules);
    expect(fromBundle.every((json) => json.startsWith('[{'))).toBe(true);
  }, 120_000);
});

describe.runIf(built)('the bundles of the formats and of the page worker', () => {
  it('are what a built partition process loads: one file per format, and the page worker thread in one file', async () => {
    const worker = readFileSync(bundle, 'utf8');
    expect(worker).toContain('import("./formats/pdf-index.js")');
    expect(worker).not.toContain('partition/formats/pdf/index.js');
    expect(existsSync(path.join(nodesRoot, 'dist/pool/formats/pdf-index.js'))).toBe(true);
    const host = (await import(
      pathToFileURL(path.join(nodesRoot, 'dist/partition/formats/pdf/page-worker-host.js')).href
    )) as typeof import('../../src/partition/formats/pdf/page-worker-host.js');
    expect(host.workerEntry()?.href).toBe(pathToFileURL(path.join(nodesRoot, 'dist/partition/formats/pdf/page-worker.bundle.js')).href);
  });

  it('read a long PDF on two threads as on one, the page worker started while PDFium compiles', async () => {
    const { makePdf, textLines } = await import('../partition/formats/pdf/fixture.js');
    const built = (file: string): string => pathToFileURL(path.join(nodesRoot, 'dist/partition/formats/pdf', file)).href;
    const { extractLayouts } = (await import(built('extract-pages.js'))) as typeof import('../../src/partition/formats/pdf/extract-pages.js');
    const { stopPageWorker } = (await import(built('page-worker-host.js'))) as typeof import('../../src/partition/formats/pdf/page-worker-host.js');
    const pages = Array.from({ length: 40 }, (_, i) => ({
      texts: [
        { x: 72, y: 680, size: 18, text: `Part ${i + 1}`, bold: true },
        ...textLines(['The company increased its revenue in every region this year, as planned.'], 72, 11, 656),
      ],
    }));
    const bytes = makePdf(pages);
    try {
      const one = await extractLayouts(bytes, { parallel: false });
      // No page worker runs: this document's starts while its thread compiles PDFium.
      await stopPageWorker();
      const two = await extractLayouts(bytes, { parallel: true });
      expect(two.map((l) => l!.blocks.map((b) => [b.text, b.textClass?.type]))).toEqual(one.map((l) => l!.blocks.map((b) => [b.text, b.textClass?.type])));
      expect(two[39]!.blocks[0]!.text).toBe('Part 40');
    } finally {
      await stopPageWorker();
    }
  }, 60_000);
});

describe.skipIf(built)('the partition worker bundle (not built)', () => {
  it('is compared with the worker module once the build has made it', () => {
    console.warn('packages/nodes/dist has no partition worker bundle: run node scripts/build.mjs');
  });
});
