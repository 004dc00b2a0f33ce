import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { scoreDocument, type DocumentScores, type EvalElement } from '../eval/metrics.js';
import { UserError } from '../user-error.js';

/** One document's row of the evaluation. */
export interface EvalRow extends Partial<DocumentScores> {
  document: string;
  /** Set when the output is missing or unreadable. */
  error?: string;
}

/** Result of {@link evaluateDirectories}. */
export interface EvalReport {
  documents: EvalRow[];
  mean: { text_f1: number; order: number; type_agreement: number; tables_found: number; expected_tables: number };
}

/** The type and text of each element of an element JSON file. */
export async function readElements(path: string): Promise<EvalElement[]> {
  const data = JSON.parse(await readFile(path, 'utf8')) as unknown;
  if (!Array.isArray(data)) throw new Error('not an element array');
  return data.map((e: { type?: unknown; text?: unknown }) => ({ type: String(e.type ?? ''), text: typeof e.text === 'string' ? e.text : '' }));
}

/**
 * Compares every `<doc>.json` of EXPECTED_DIR (chunk and gold files are ignored) with
 * `<doc>.json` in OUT_DIR. A missing output scores 0.
 */
export async function evaluateDirectories(outDir: string, expectedDir: string): Promise<EvalReport> {
  let names: string[];
  try {
    names = (await readdir(expectedDir)).filter((n) => n.endsWith('.json') && !n.endsWith('.chunks.json')).sort();
  } catch {
    throw new UserError(`cannot read expected directory ${expectedDir}`);
  }
  if (!names.length) throw new UserError(`no <doc>.json reference files in ${expectedDir}`);
  const documents: EvalRow[] = [];
  for (const name of names) {
    const document = name.slice(0, -'.json'.length);
    const expected = await readElements(join(expectedDir, name));
    let output: EvalElement[];
    try {
      output = await readElements(join(outDir, name));
    } catch (e) {
      documents.push({ document, error: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no output' : (e as Error).message, text_f1: 0, order: 0, type_agreement: 0, tables_found: 0, expected_tables: expected.filter((x) => x.type === 'Table').length });
      continue;
    }
    documents.push({ document, ...scoreDocument(output, expected) });
  }
  const mean = (k: 'text_f1' | 'order' | 'type_agreement') => documents.reduce((a, d) => a + (d[k] ?? 0), 0) / documents.length;
  return {
    documents,
    mean: {
      text_f1: mean('text_f1'),
      order: mean('order'),
      type_agreement: mean('type_agreement'),
      tables_found: documents.reduce((a, d) => a + (d.tables_found ?? 0), 0),
      expected_tables: documents.reduce((a, d) => a + (d.expected_tables ?? 0), 0),
    },
  };
}

const pct = (x: number | undefined) => (x === undefined ? '   -  ' : `${(x * 100).toFixed(1).padStart(5)}%`);

/** Options of `quarry eval`. */
export interface EvalCommandOptions {
  json?: boolean;
  /** Write the HTML report to this file. */
  html?: string;
  /** Where the source documents are: their inspection reports are written beside the HTML report. */
  docs?: string;
}

/** `quarry eval OUT_DIR EXPECTED_DIR [--json] [--html REPORT.html [--docs DIR]]`. */
export async function evalCommand(outDir: string, expectedDir: string, opts: EvalCommandOptions): Promise<void> {
  if (opts.docs && !opts.html) throw new UserError('--docs needs --html REPORT.html');
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
  const lines = [`${'document'.padEnd(w)}  text F1   order    types   tables`];
  for (const d of report.documents) {
    const tables = d.expected_tables ? `${d.tables_found}/${d.expected_tables}` : '-';
    lines.push(`${d.document.padEnd(w)}  ${pct(d.text_f1)}  ${pct(d.order)}  ${pct(d.type_agreement)}  ${tables.padStart(6)}${d.error ? `  (${d.error})` : ''}`);
  }
  const m = report.mean;
  lines.push(`${'mean'.padEnd(w)}  ${pct(m.text_f1)}  ${pct(m.order)}  ${pct(m.type_agreement)}  ${`${m.tables_found}/${m.expected_tables}`.padStart(6)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
