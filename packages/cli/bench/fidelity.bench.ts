/**
 * Table fidelity on the ICDAR 2013 dev set (`../shared/fidelity/icdar2013-dev`: 37 born-digital PDFs,
 * 97 hand-made tables), quarry beside the JavaScript parsers people pick instead, all scored the same
 * way in the same run. Run: `pnpm bench fidelity` (builds first: quarry runs as the built CLI), or
 * after a build `node --import tsx packages/cli/bench/fidelity.bench.ts`.
 *
 * Contenders, each one process over every PDF of the set, one document at a time:
 * - `quarry partition --strategy hi_res|fast|auto --infer-table-structure --num-processes 1`; its Table
 *   elements (`metadata.text_as_html`, `metadata.page_number`) are the predicted tables.
 * - LiteParse and pdf-inspector (devDependencies of @quarry/nodes) through
 *   `packages/nodes/bench/support/markdown-peers.mjs`: their page Markdown, whose pipe tables are read
 *   as HTML grids (GitHub-flavoured Markdown, no spans: pipe tables have none).
 *
 * Scoring (`packages/cli/src/eval/table-scores.ts`, as `quarry eval` does): a true table is found
 * when a predicted table on its pages holds at least half of its words; predicted tables matching no
 * true table are false positives; each true table keeps its best TEDS and TEDS-S among the
 * document's predicted tables (0 when none). Prints one JSON line per contender
 * (`table_recall`, `table_precision`, `teds`, `teds_s` pooled over the 97 tables, `seconds` of the
 * whole process), a `fidelity-summary` line with the load average, and on stderr the Markdown table of
 * the root README's Quality section. Without `../shared/fidelity` it prints a `skipped` line.
 *
 * `--scanned` (`pnpm bench fidelity --scanned`) measures scanned tables instead, on a proxy since the set
 * has no scans: every page holding a true table is rendered with PDFium to a grey 200 dpi picture
 * (`packages/cli/src/eval/scanned.ts`, as `quarry eval --scanned` does, into a temporary folder, never
 * kept), and `quarry partition --strategy hi_res` reads it as a PNG and as an image-only PDF (OCR only,
 * no text layer); the outputs of a document's pages are joined, each element on the page it was
 * rendered from, and scored as above. Its lines add `pages` and `seconds_per_page`. `--docs eu-001,us-026` keeps some documents
 * (to subsample while developing).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCAN_DPI } from '../../nodes/src/inspect/scan-pages.js';
import { predictedTablesOf, referenceTablesOf } from '../src/eval/reference-tables.js';
import { joinScannedOutputs, writeScans, type ScanContainer, type ScanFile } from '../src/eval/scanned.js';
import { scoreTables, type DocumentTableScores, type PredictedTable } from '../src/eval/table-scores.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '../../..');
const devDir = path.resolve(repoRoot, '..', 'shared', 'fidelity', 'icdar2013-dev');
const CLI = path.join(repoRoot, 'packages', 'cli', 'dist', 'bin.js');
const nodesDir = path.join(repoRoot, 'packages', 'nodes');
const PEERS_SCRIPT = path.join(nodesDir, 'bench', 'support', 'markdown-peers.mjs');

const print = (line: Record<string, unknown>): void => console.log(JSON.stringify(line));
const round = (x: number, digits = 3): number => Number(x.toFixed(digits));
const loadAverage = (): number[] => loadavg().map((x) => round(x, 2));

interface Contender {
  name: string;
  version?: string;
  command: string[];
  /** The files the command reads (default: the dev set's PDFs). */
  inputs?: string[];
  /** Predicted tables of one document from the contender's output directory. */
  read(outDir: string, pdf: string): PredictedTable[];
  /** Readies the output directory for `read` after the command ran. */
  join?(outDir: string): Promise<void>;
}

const argv = process.argv.slice(2);
const scanned = argv.includes('--scanned');
const onlyDocs = argv.includes('--docs') ? new Set(argv[argv.indexOf('--docs') + 1]?.split(',')) : undefined;

/**
 * quarry hi_res over the scanned pages in `container`: a document's outputs are its pages' joined
 * (`joinScannedOutputs`), each element on the page it was rendered from.
 */
function quarryScanned(container: ScanContainer, scans: readonly ScanFile[]): Contender {
  const base = quarry('hi_res');
  return {
    name: `quarry hi_res scanned ${container === 'png' ? 'PNG' : 'image-only PDF'}`,
    command: base.command,
    inputs: scans.map((s) => s.path),
    read: (outDir, pdf) => base.read(path.join(outDir, 'joined'), `${pdf.slice(0, -'.pdf'.length)}`),
    join: (outDir) => joinScannedOutputs(scans, outDir, path.join(outDir, 'joined')),
  };
}

function packageVersion(pkg: string): string | undefined {
  const manifest = path.join(nodesDir, 'node_modules', pkg, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}

function quarry(strategy: string): Contender {
  return {
    name: `quarry ${strategy}`,
    command: [process.execPath, CLI, 'partition', '--strategy', strategy, '--infer-table-structure', '--num-processes', '1', '--quiet', '--output'],
    read: (outDir, pdf) => predictedTablesOf(JSON.parse(readFileSync(path.join(outDir, `${pdf}.json`), 'utf8')) as unknown[]),
  };
}

function peer(name: 'liteparse' | 'pdf-inspector', label: string, pkg: string): Contender {
  return {
    name: label,
    version: packageVersion(pkg),
    command: [process.execPath, PEERS_SCRIPT, name],
    read: (outDir, pdf) => {
      const pages = JSON.parse(readFileSync(path.join(outDir, `${pdf}.json`), 'utf8')) as Array<{ page: number; tables: string[] }>;
      return pages.flatMap((p) => p.tables.map((html) => ({ html, text: '', page: p.page })));
    },
  };
}

interface Totals {
  tables: number;
  found: number;
  predicted: number;
  false_positives: number;
  teds: number;
  teds_s: number;
}

function add(t: Totals, s: DocumentTableScores): void {
  t.tables += s.expected_tables;
  t.found += s.tables_found;
  t.predicted += s.predicted_tables;
  t.false_positives += s.false_positives;
  for (const r of s.tables) {
    t.teds += r.teds;
    t.teds_s += r.teds_s;
  }
}

async function main(): Promise<void> {
  if (!existsSync(devDir)) {
    print({ bench: 'fidelity', skipped: `${devDir} is absent (the ICDAR 2013 dev set lives in ../shared/fidelity beside the repository)` });
    return;
  }
  if (!existsSync(CLI)) {
    print({ bench: 'fidelity', skipped: `${CLI} not built (run pnpm bench fidelity, which builds)` });
    return;
  }
  const docs = readdirSync(devDir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => n.slice(0, -'.json'.length))
    .filter((d) => !onlyDocs || onlyDocs.has(d));
  const pdfs = docs.map((d) => `${d}.pdf`);
  const truth = new Map(docs.map((d) => [d, referenceTablesOf(JSON.parse(readFileSync(path.join(devDir, `${d}.json`), 'utf8')) as unknown)]));
  const tableCount = [...truth.values()].reduce((n, t) => n + t.length, 0);
  const load_average_before = loadAverage();
  const rows: Array<{ name: string; version?: string; recall: number; precision: number | null; teds: number; teds_s: number; seconds: number }> = [];
  const work = await mkdtemp(path.join(tmpdir(), 'quarry-fidelity-'));
  try {
    let contenders: Contender[];
    let pageCount: number | undefined;
    if (scanned) {
      const only = onlyDocs ? path.join(work, 'references') : devDir;
      if (onlyDocs) {
        await mkdir(only);
        for (const d of docs) await copyFile(path.join(devDir, `${d}.json`), path.join(only, `${d}.json`));
      }
      const png = await writeScans(only, devDir, path.join(work, 'scans'), 'png');
      const pdf = await writeScans(only, devDir, path.join(work, 'scans'), 'pdf');
      pageCount = png.length;
      contenders = [quarryScanned('png', png), quarryScanned('pdf', pdf)];
    } else {
      contenders = [
        quarry('hi_res'),
        quarry('fast'),
        quarry('auto'),
        peer('liteparse', 'LiteParse', '@llamaindex/liteparse'),
        peer('pdf-inspector', 'pdf-inspector', '@firecrawl/pdf-inspector'),
      ];
    }
    for (const c of contenders) {
      const outDir = path.join(work, c.name.replace(/\W+/g, '-'));
      const [command, ...args] = c.command;
      await mkdir(outDir, { recursive: true });
      const start = performance.now();
      const inputs = c.inputs ?? pdfs.map((p) => path.join(devDir, p));
      const run = spawnSync(command!, [...args, outDir, ...inputs], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const seconds = (performance.now() - start) / 1000;
      await c.join?.(outDir);
      if (run.status !== 0) {
        print({
          bench: 'fidelity',
          contender: c.name,
          skipped: `exit ${run.status}: ${(run.stderr || run.error?.message || '').trim().split('\n').slice(-3).join(' | ')}`,
        });
        continue;
      }
      const totals: Totals = { tables: 0, found: 0, predicted: 0, false_positives: 0, teds: 0, teds_s: 0 };
      const perDocument: Record<string, { found: string; teds: number }> = {};
      for (const [i, doc] of docs.entries()) {
        const s = scoreTables(c.read(outDir, pdfs[i]!), truth.get(doc)!);
        add(totals, s);
        perDocument[doc] = { found: `${s.tables_found}/${s.expected_tables}`, teds: round(s.tables.reduce((a, t) => a + t.teds, 0) / s.tables.length) };
      }
      const precision = totals.predicted ? (totals.predicted - totals.false_positives) / totals.predicted : null;
      const row = {
        name: c.name,
        version: c.version,
        recall: totals.found / totals.tables,
        precision,
        teds: totals.teds / totals.tables,
        teds_s: totals.teds_s / totals.tables,
        seconds,
      };
      rows.push(row);
      print({
        bench: 'fidelity',
        contender: c.name,
        version: c.version,
        documents: docs.length,
        tables: totals.tables,
        found: totals.found,
        table_recall: round(row.recall),
        predicted: totals.predicted,
        false_positives: totals.false_positives,
        table_precision: precision === null ? null : round(precision),
        teds: round(row.teds),
        teds_s: round(row.teds_s),
        seconds: round(seconds, 2),
        ...(pageCount ? { pages: pageCount, dpi: SCAN_DPI, seconds_per_page: round(seconds / pageCount, 2) } : {}),
        per_document: perDocument,
      });
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  print({
    bench: 'fidelity-summary',
    mode: scanned ? 'scanned' : 'born-digital',
    documents: docs.length,
    load_average_before,
    load_average_after: loadAverage(),
  });
  const pct = (x: number | null) => (x === null ? '-' : x.toFixed(2));
  const lines = [
    `| ICDAR 2013 dev set (${docs.length} PDFs, ${tableCount} tables${scanned ? ", pages rendered at 200 dpi and OCR'd" : ''}) | table recall | table precision | TEDS | TEDS-S | seconds |`,
    '|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name}${r.version ? ` ${r.version}` : ''} | ${pct(r.recall)} | ${pct(r.precision)} | ${pct(r.teds)} | ${pct(r.teds_s)} | ${r.seconds.toFixed(1)} |`,
    ),
  ];
  process.stderr.write(`\nREADME table (## Quality):\n${lines.join('\n')}\n`);
}

await main();
