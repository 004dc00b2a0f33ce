/**
 * Where the CPU time of the fast strategy's pages goes, on DA-619p.pdf (619 pages), on one thread.
 * Run: `corepack pnpm bench page-cpu`, or `node --import tsx packages/nodes/bench/page-cpu.bench.ts`.
 *
 * Prints JSON lines, CPU milliseconds per page (user + system of the whole process):
 * - `page-cpu-cold`: the first pass of this process over every page (`extractLayouts`, one thread),
 *   as `quarry partition` pays it, and the share of it spent on other threads than this one
 *   (V8 compiling JavaScript and WebAssembly in the background, the collector's helpers; Linux only).
 * - `page-cpu-split`: after a warm-up, medians of interleaved rounds of each stage alone:
 *   `pdfium_load` (PDFium's `FPDF_LoadPage` and `FPDFText_LoadPage` and nothing else, the floor
 *   of any reading through PDFium), `pdfium_read` (reading the page as quarry does: loading, the
 *   characters, the ruling lines), `layout` (lines, blocks, tables, reading order of the read pages),
 *   `classify` (the blocks' text classes), and `total` (`extractLayouts`, all of them).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageLayout, PageText } from '../src/partition/formats/pdf/layout-types.js';
import { extractLayouts } from '../src/partition/formats/pdf/extract-pages.js';
import { classifyPageBlocks, layoutPageText } from '../src/partition/formats/pdf/page-layout.js';
import { PdfiumDocument } from '../src/partition/formats/pdf/pdfium/document.js';
import { instantiatePdfium } from '../src/partition/formats/pdf/pdfium/module.js';
import { loadAverage, median, round } from './support/process-timing.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const LONG = path.resolve(benchDir, '../../../..', 'shared', 'corpus', 'docs', 'DA-619p.pdf');
const ROUNDS = 7;

const print = (line: Record<string, unknown>): void => console.log(JSON.stringify(line));

/** CPU milliseconds (user + system, every thread) that `work` takes. */
async function cpuMs(work: () => unknown): Promise<number> {
  const start = process.cpuUsage();
  await work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** CPU milliseconds of each thread of this process so far, by thread id (Linux), or undefined. */
function threadCpuMs(): Map<string, number> | undefined {
  if (!existsSync('/proc/self/task')) return undefined;
  const out = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // utime and stime, in clock ticks (100 a second on Linux).
      out.set(tid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/** PDFium loading every page and its text page, nothing read from them. */
async function loadPagesOnly(bytes: Uint8Array): Promise<void> {
  const { x, u8 } = await instantiatePdfium();
  const data = x.malloc(bytes.length);
  u8().set(bytes, data);
  const doc = x.FPDF_LoadMemDocument(data, bytes.length, 0);
  for (let i = 0, n = x.FPDF_GetPageCount(doc); i < n; i++) {
    const page = x.FPDF_LoadPage(doc, i);
    x.FPDFText_ClosePage(x.FPDFText_LoadPage(page));
    x.FPDF_ClosePage(page);
  }
  x.FPDF_CloseDocument(doc);
  x.free(data);
}

async function readPages(bytes: Uint8Array): Promise<PageText[]> {
  const doc = await PdfiumDocument.open(bytes);
  try {
    const texts: PageText[] = [];
    for (let p = 1; p <= doc.numPages; p++) texts.push(await doc.pageText(p));
    return texts;
  } finally {
    doc.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(LONG)) {
    print({ bench: 'page-cpu', skipped: `${LONG} not found (the shared corpus beside the repository)` });
    return;
  }
  const bytes = new Uint8Array(readFileSync(LONG));
  const load_average_before = loadAverage();

  const before = threadCpuMs();
  const mainThread = String(process.pid);
  let pages = 0;
  const cold = await cpuMs(async () => {
    pages = (await extractLayouts(bytes, { parallel: false })).length;
  });
  const after = threadCpuMs();
  const own = before && after ? (after.get(mainThread) ?? 0) - (before.get(mainThread) ?? 0) : undefined;
  print({
    bench: 'page-cpu-cold',
    file: 'DA-619p.pdf',
    pages,
    cpu_ms_per_page: round(cold / pages, 2),
    other_threads_ms_per_page: own === undefined ? null : round(Math.max(0, cold - own) / pages, 2),
  });

  const texts = await readPages(bytes);
  const layOut = (): PageLayout[] => texts.map((t, i) => layoutPageText(i + 1, t, { classify: false }));
  // Each stage's CPU milliseconds; classification sets a block's class once, so its pages are laid out anew (unmeasured).
  const stages: Record<string, () => Promise<number>> = {
    pdfium_load: () => cpuMs(() => loadPagesOnly(bytes)),
    pdfium_read: () => cpuMs(() => readPages(bytes)),
    layout: () => cpuMs(layOut),
    classify: () => {
      const layouts = layOut();
      return cpuMs(() => {
        for (const l of layouts) classifyPageBlocks(l);
      });
    },
    total: () => cpuMs(() => extractLayouts(bytes, { parallel: false })),
  };
  const runs = new Map<string, number[]>(Object.keys(stages).map((k) => [k, []]));
  // Round 0 warms up.
  for (let r = 0; r <= ROUNDS; r++) {
    for (const [name, stage] of Object.entries(stages)) {
      const ms = await stage();
      if (r > 0) runs.get(name)!.push(ms / pages);
    }
  }
  print({
    bench: 'page-cpu-split',
    file: 'DA-619p.pdf',
    pages,
    rounds: ROUNDS,
    ...Object.fromEntries([...runs].map(([name, ms]) => [`${name}_ms_per_page`, round(median(ms), 2)])),
    load_average_before,
    load_average_after: loadAverage(),
  });
}

await main();
