/**
 * PDF partitioning figures. Run: `node --import tsx packages/nodes/bench/pdf.bench.ts`.
 *
 * Prints JSON lines:
 * - `pdf-fast`: the fast strategy on DA-619p.pdf (619 pages) with the default engine (PDFium),
 *   pages/s, against raw pdf.js `getTextContent` over every page of the same file in the same
 *   process (`ratio` = our time / raw time), our single-thread time, and the same partition with
 *   the pdf.js engine (`pdfjs_engine_s`);
 * - `pdf-fast-vs-pdfium-text`: the same against raw PDFium text extraction on one thread (every
 *   page's text page and `FPDFText_GetText`, nothing else: the text-only figure of PDFium-WASM;
 *   `ratio` = their time / ours, > 1 means our typed elements come faster than their plain text);
 * - `pdf-fast-vs-pdf-parse`: the same against pdf-parse (`ratio` = their time / ours, > 1 means
 *   we are faster), measured in a child process per run so its own pdf.js copy (and the polyfills
 *   it installs) cannot touch ours;
 * - `pdf-fast-vs-pdfminer`: the same against pdfminer.six's `extract_text` (Debian
 *   python3-pdfminer), when installed (`ratio` = their time / ours; the goal is >= 5);
 * - `pdf-ocr`: hi_res on the scanned loremipsum-flat.pdf, seconds per page;
 * - `pdf-fast-rss`: peak resident memory of a fresh process partitioning DA-619p.pdf in fast mode
 *   (the build, when fresh: see `peakRss`).
 *
 * Runs are interleaved (ours, raw, pdf-parse, ours, ...) after a warm-up, so load from other
 * processes hits the contenders alike; figures are medians.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pdfPartitioner } from '../src/partition/formats/pdf.js';
import { extractLayouts } from '../src/partition/formats/pdf-extract-pages.js';
import { stopPageWorker } from '../src/partition/formats/pdf-page-worker-host.js';
import { loadPdfjs, pdfjsAssetDirs } from '../src/partition/formats/pdf-load.js';
import { instantiatePdfium } from '../src/partition/formats/pdfium-module.js';
import { releaseOcrWorkers } from '../src/partition/ocr.js';
import type { FormatPartitionOptions } from '../src/partition/types.js';
import { formatOptions } from '../test/partition/format-options.js';

const benchFile = fileURLToPath(import.meta.url);
const repoRoot = path.resolve(path.dirname(benchFile), '../../..');
const docs = path.resolve(repoRoot, '..', 'shared', 'corpus', 'docs');
const LONG = path.join(docs, 'DA-619p.pdf');
const SCAN = path.join(docs, 'loremipsum-flat.pdf');
const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const round = (v: number, digits = 3): number => Number(v.toFixed(digits));

async function seconds(fn: () => Promise<unknown>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function options(strategy: FormatPartitionOptions['strategy'], filename: string): FormatPartitionOptions {
  return formatOptions({ strategy, filename, filetype: 'application/pdf' });
}

/** Raw pdf.js: every page's `getTextContent`, nothing else. */
async function rawTextContent(bytes: Uint8Array): Promise<number> {
  const pdfjs = await loadPdfjs();
  const doc = await pdfjs.getDocument({ data: bytes.slice(), ...pdfjsAssetDirs(), cMapPacked: true, disableFontFace: true, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  let items = 0;
  for (let p = 1; p <= doc.numPages; p++) {
    const page = await doc.getPage(p);
    items += (await page.getTextContent()).items.length;
    page.cleanup();
  }
  await doc.destroy();
  return items;
}

/** Raw PDFium: every page's text page and its plain text, on this thread, nothing else. */
async function rawPdfiumText(bytes: Uint8Array): Promise<number> {
  const { x, u8 } = await instantiatePdfium();
  const data = x.malloc(bytes.length);
  u8().set(bytes, data);
  const doc = x.FPDF_LoadMemDocument(data, bytes.length, 0);
  let chars = 0;
  for (let i = 0, n = x.FPDF_GetPageCount(doc); i < n; i++) {
    const page = x.FPDF_LoadPage(doc, i);
    const text = x.FPDFText_LoadPage(page);
    const count = x.FPDFText_CountChars(text);
    const buf = x.malloc(2 * (count + 1));
    chars += x.FPDFText_GetText(text, 0, count, buf);
    x.free(buf);
    x.FPDFText_ClosePage(text);
    x.FPDF_ClosePage(page);
  }
  x.FPDF_CloseDocument(doc);
  x.free(data);
  return chars;
}

/** Runs this file again in child mode; returns its JSON output. */
function child(mode: string, ...args: string[]): Record<string, unknown> {
  const r = spawnSync(process.execPath, [...process.execArgv, benchFile, mode, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`child ${mode} failed: ${r.stderr.slice(-500)}`);
  }
}

/** Child mode: one warm-up and one timed pdf-parse `getText` of `file`. */
async function pdfParseChild(file: string): Promise<void> {
  const { PDFParse } = (await import('pdf-parse')) as unknown as {
    PDFParse: new (o: { data: Uint8Array }) => { getText(): Promise<{ text: string }>; destroy(): Promise<void> };
  };
  const bytes = new Uint8Array(readFileSync(file));
  const run = async (): Promise<number> => {
    const parser = new PDFParse({ data: bytes.slice() });
    const { text } = await parser.getText();
    await parser.destroy();
    return text.length;
  };
  await run();
  let chars = 0;
  const s = await seconds(async () => {
    chars = await run();
  });
  console.log(JSON.stringify({ seconds: s, chars }));
}

/** Child mode: one fast partition of `file`; reports the peak RSS of the process. */
async function rssChild(file: string): Promise<void> {
  const els = await pdfPartitioner.partition(new Uint8Array(readFileSync(file)), options('fast', path.basename(file)));
  await stopPageWorker();
  console.log(JSON.stringify({ elements: els.length, max_rss_mb: round(process.resourceUsage().maxRSS / 1024, 1) }));
}

/**
 * Peak RSS of a fresh process partitioning `file`. It runs the build (`dist/`) when that is newer
 * than the PDF sources, because the tsx loader alone adds about 300 MB of peak RSS to a process
 * that imports pdf.js; otherwise it runs the sources under tsx and says so.
 */
function peakRss(file: string): Record<string, unknown> {
  const pkg = path.resolve(path.dirname(benchFile), '..');
  const built = path.join(pkg, 'dist', 'partition', 'formats', 'pdf.js');
  const srcDir = path.join(pkg, 'src', 'partition', 'formats');
  // tsc rewrites only the outputs of changed sources, so freshness is checked file by file.
  const fresh = readdirSync(srcDir)
    .filter((f) => f.startsWith('pdf') && f.endsWith('.ts'))
    .every((f) => {
      const out = path.join(pkg, 'dist', 'partition', 'formats', f.replace(/\.ts$/, '.js'));
      return existsSync(out) && statSync(out).mtimeMs >= statSync(path.join(srcDir, f)).mtimeMs;
    });
  if (!fresh) return { ...child('--rss-child', file), loader: 'tsx (no fresh build)' };
  const script = `
    import { readFileSync } from 'node:fs';
    const { pdfPartitioner } = await import(${JSON.stringify(pathToFileURL(built).href)});
    const { stopPageWorker } = await import(${JSON.stringify(pathToFileURL(path.join(path.dirname(built), 'pdf-page-worker-host.js')).href)});
    const log = { debug() {}, info() {}, warn() {}, error() {} };
    const els = await pdfPartitioner.partition(new Uint8Array(readFileSync(${JSON.stringify(file)})), { strategy: 'fast', encoding: 'utf-8',
      include_page_breaks: false, infer_table_structure: false, xml_keep_tags: false, ocr_languages: ['eng'], extract_image_block_types: [],
      coordinates: false, filename: 'f.pdf', filetype: 'application/pdf', signal: new AbortController().signal, logger: log, partitionEmbedded: async () => [] });
    await stopPageWorker();
    console.log(JSON.stringify({ elements: els.length, max_rss_mb: Math.round(process.resourceUsage().maxRSS / 102.4) / 10 }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return { ...(JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>), loader: 'build (dist)' };
}

function pdfminerCommand(): string | undefined {
  for (const py of ['/usr/bin/python3', 'python3']) {
    if (spawnSync(py, ['-c', 'import pdfminer.high_level'], { stdio: 'ignore' }).status === 0) return py;
  }
  return undefined;
}

async function main(): Promise<void> {
  const [mode, arg] = process.argv.slice(2);
  if (mode === '--pdf-parse-child') return pdfParseChild(arg!);
  if (mode === '--rss-child') return rssChild(arg!);
  if (!existsSync(LONG) || !existsSync(SCAN)) {
    console.log(JSON.stringify({ bench: 'pdf', skipped: `corpus files not found in ${docs}` }));
    return;
  }
  const bytes = new Uint8Array(readFileSync(LONG));
  const pages = 619;

  const ours = async (): Promise<void> => {
    await pdfPartitioner.partition(bytes, options('fast', 'DA-619p.pdf'));
  };
  const oursOneThread = async (): Promise<void> => {
    await extractLayouts(bytes, { parallel: false });
  };
  const oursPdfjs = async (): Promise<void> => {
    await pdfPartitioner.partition(bytes, { ...options('fast', 'DA-619p.pdf'), pdf_engine: 'pdfjs' });
  };
  // Warm-up: pdf.js import, the page worker thread, the part-of-speech tagger's lexicon.
  await ours();
  await rawTextContent(bytes);
  await oursOneThread();
  await oursPdfjs();
  await rawPdfiumText(bytes);

  const t = { ours: [] as number[], raw: [] as number[], one: [] as number[], pdfParse: [] as number[], pdfjs: [] as number[], pdfium: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    t.ours.push(await seconds(ours));
    t.raw.push(await seconds(() => rawTextContent(bytes)));
    t.one.push(await seconds(oursOneThread));
    t.pdfParse.push(child('--pdf-parse-child', LONG).seconds as number);
    t.pdfjs.push(await seconds(oursPdfjs));
    t.pdfium.push(await seconds(() => rawPdfiumText(bytes)));
  }
  const ourS = median(t.ours);
  const rawS = median(t.raw);
  console.log(
    JSON.stringify({
      bench: 'pdf-fast',
      file: 'DA-619p.pdf',
      pages,
      runs: RUNS,
      ours_s: round(ourS),
      ours_pages_per_s: round(pages / ourS, 1),
      raw_getTextContent_s: round(rawS),
      raw_pages_per_s: round(pages / rawS, 1),
      ratio: round(ourS / rawS),
      ours_single_thread_layout_s: round(median(t.one)),
      pdfjs_engine_s: round(median(t.pdfjs)),
      pdfjs_engine_pages_per_s: round(pages / median(t.pdfjs), 1),
    }),
  );
  const pdfiumS = median(t.pdfium);
  console.log(
    JSON.stringify({ bench: 'pdf-fast-vs-pdfium-text', file: 'DA-619p.pdf', ours_s: round(ourS), ours_pages_per_s: round(pages / ourS, 1), pdfium_text_s: round(pdfiumS), pdfium_text_pages_per_s: round(pages / pdfiumS, 1), ratio: round(pdfiumS / ourS), goal: 'ratio > 1' }),
  );
  const pdfParseS = median(t.pdfParse);
  console.log(
    JSON.stringify({ bench: 'pdf-fast-vs-pdf-parse', file: 'DA-619p.pdf', ours_s: round(ourS), pdf_parse_s: round(pdfParseS), pdf_parse_pages_per_s: round(pages / pdfParseS, 1), ratio: round(pdfParseS / ourS), goal: 'ratio > 1' }),
  );

  const py = pdfminerCommand();
  if (py) {
    const script = 'import sys, time\nfrom pdfminer.high_level import extract_text\nt = time.perf_counter()\nextract_text(sys.argv[1])\nprint(time.perf_counter() - t)';
    const r = spawnSync(py, ['-c', script, LONG], { encoding: 'utf8' });
    const minerS = Number(r.stdout.trim().split('\n').pop());
    console.log(
      JSON.stringify({ bench: 'pdf-fast-vs-pdfminer', file: 'DA-619p.pdf', ours_s: round(ourS), pdfminer_s: round(minerS), pdfminer_pages_per_s: round(pages / minerS, 1), ratio: round(minerS / ourS, 1), goal: 'ratio >= 5', runs: 1 }),
    );
  } else {
    console.log(JSON.stringify({ bench: 'pdf-fast-vs-pdfminer', skipped: 'pdfminer.six not installed (Debian: apt-get install -y python3-pdfminer)' }));
  }

  const scan = new Uint8Array(readFileSync(SCAN));
  const ocr = async (): Promise<void> => {
    await pdfPartitioner.partition(scan, options('hi_res', 'loremipsum-flat.pdf'));
  };
  await ocr();
  const ocrRuns: number[] = [];
  for (let i = 0; i < 3; i++) ocrRuns.push(await seconds(ocr));
  console.log(JSON.stringify({ bench: 'pdf-ocr', file: 'loremipsum-flat.pdf', pages: 1, dpi: 200, runs: 3, seconds_per_page: round(median(ocrRuns), 2) }));
  await releaseOcrWorkers();

  const rss = peakRss(LONG);
  console.log(JSON.stringify({ bench: 'pdf-fast-rss', file: 'DA-619p.pdf', peak_rss_mb: rss.max_rss_mb, elements: rss.elements, loader: rss.loader }));
  await stopPageWorker();
}

await main();
