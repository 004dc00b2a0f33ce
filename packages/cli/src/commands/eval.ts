import { join, resolve } from 'node:path';
import { evaluateDirectories, type EvalReport, type EvalRow } from '../eval/evaluate.js';
import type { PartitionProcessFlags } from '../partition-processes.js';
import { UserError } from '../user-error.js';

export { evaluateDirectories, readElements, type EvalReport, type EvalRow } from '../eval/evaluate.js';

const pct = (x: number | undefined) => (x === undefined ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);

/** Options of `quarry eval`. */
export interface EvalCommandOptions extends PartitionProcessFlags {
  json?: boolean;
  /** Write the HTML report to this file. */
  html?: string;
  /**
   * Where the source documents are: their inspection reports are written beside the HTML report,
   * and `--scanned` scans their PDFs (default EXPECTED_DIR).
   */
  docs?: string;
  /** Scan the pages holding reference tables into this container (`png` or `pdf`), OCR them with hi_res, then score. */
  scanned?: string;
}

/**
 * `quarry eval OUT_DIR EXPECTED_DIR [--json] [--html REPORT.html] [--docs DIR] [--scanned png|pdf]`.
 * With `--scanned`, OUT_DIR's `<doc>.json` outputs are made first: the pages of `<doc>.pdf` (in --docs,
 * default EXPECTED_DIR) holding reference tables are scanned into `OUT_DIR/scans-<container>/`,
 * partitioned there with hi_res and table structure, and joined per document.
 */
export async function evalCommand(outDir: string, expectedDir: string, opts: EvalCommandOptions): Promise<void> {
  if (opts.docs && !opts.html && !opts.scanned) throw new UserError('--docs needs --html REPORT.html or --scanned');
  if (opts.scanned) await scanAndPartition(outDir, expectedDir, opts);
  const report = await evaluateDirectories(outDir, expectedDir);
  if (opts.html) {
    // The report's modules (and @quarry/nodes, for the inspection reports) load only when asked for.
    const { writeHtmlReport } = await import('../eval/write-html-report.js');
    await writeHtmlReport(report, outDir, expectedDir, resolve(opts.html), opts.docs);
  }
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return;
  }
  const w = Math.max(8, ...report.documents.map((d) => d.document.length));
  const lines = [`${'document'.padEnd(w)}  text F1   order    types   tables  tbl rec  tbl prec    TEDS   TEDS-S   head P   head R`];
  const structure = (d: EvalRow | EvalReport['mean']) =>
    `  ${pct(d.table_recall)}  ${pct(d.table_precision)}   ${pct(d.teds)}  ${pct(d.teds_s)}  ${pct(d.heading_precision)}  ${pct(d.heading_recall)}`;
  for (const d of report.documents) {
    const tables = d.expected_tables ? `${d.tables_found}/${d.expected_tables}` : '-';
    lines.push(
      `${d.document.padEnd(w)}  ${pct(d.text_f1)}  ${pct(d.order)}  ${pct(d.type_agreement)}  ${tables.padStart(6)}${structure(d)}${d.error ? `  (${d.error})` : ''}`,
    );
  }
  const m = report.mean;
  lines.push(
    `${'mean'.padEnd(w)}  ${pct(m.text_f1)}  ${pct(m.order)}  ${pct(m.type_agreement)}  ${`${m.tables_found}/${m.expected_tables}`.padStart(6)}${structure(m)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** The `--scanned` outputs of OUT_DIR (see {@link evalCommand}); a page that fails is reported and scores nothing. */
async function scanAndPartition(outDir: string, expectedDir: string, opts: EvalCommandOptions): Promise<void> {
  const { SCAN_CONTAINERS, joinScannedOutputs, writeScans } = await import('../eval/scanned.js');
  const container = SCAN_CONTAINERS.find((c) => c === opts.scanned);
  if (!container) throw new UserError(`--scanned must be one of ${SCAN_CONTAINERS.join(', ')}, got "${opts.scanned}"`);
  const scansDir = join(outDir, `scans-${container}`);
  const scans = await writeScans(expectedDir, opts.docs ?? expectedDir, scansDir, container);
  if (scans.length === 0) throw new UserError(`--scanned: no reference in ${expectedDir} gives a table to scan`);
  const { partitionCommand } = await import('./partition.js');
  const pagesOut = join(scansDir, 'out');
  await partitionCommand(
    scans.map((s) => s.path),
    {
      strategy: 'hi_res',
      output: pagesOut,
      inferTableStructure: true,
      ocrLanguages: 'auto',
      encoding: 'utf-8',
      uniqueElementIds: true,
      quiet: true,
      ...(opts.numProcesses === undefined ? {} : { numProcesses: opts.numProcesses }),
      ...(opts.documentTimeout === undefined ? {} : { documentTimeout: opts.documentTimeout }),
    },
  );
  await joinScannedOutputs(scans, pagesOut, outDir);
}
