import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../user-error.js';
import { headingScores, scoreDocument, type DocumentScores, type EvalElement, type HeadingScores } from './metrics.js';
import { referenceTablesOf } from './reference-tables.js';
import { matchesTableText, scoreTables, type PredictedTable, type ReferenceTable, type TableResult } from './table-scores.js';

/** Table detection and structure scores of one document (tables of the reference with HTML or cells). */
export interface TableStructureScores {
  /** Reference tables found (a predicted Table on their pages holds half of their words), over all. */
  table_recall: number;
  /** Predicted Tables that match a reference table, over all predicted; absent when none was predicted. */
  table_precision?: number;
  /** Mean TEDS and TEDS-S over the reference tables. */
  teds: number;
  teds_s: number;
  predicted_tables: number;
  false_positives: number;
  /** Each reference table: found, its best TEDS and TEDS-S, and which predicted table gave it. */
  tables: TableResult[];
}

/** One document's row of the evaluation. */
export interface EvalRow extends Partial<DocumentScores>, Partial<HeadingScores>, Partial<TableStructureScores> {
  document: string;
  /** Set when the output is missing or unreadable. */
  error?: string;
}

/** Means of {@link EvalReport}; a score is absent when no document has it. */
export interface EvalMeans {
  text_f1?: number;
  order?: number;
  type_agreement?: number;
  tables_found: number;
  expected_tables: number;
  /** Over all reference tables of all documents (not a mean of document means). */
  table_recall?: number;
  table_precision?: number;
  teds?: number;
  teds_s?: number;
  /** Means over the documents whose reference gives elements. */
  heading_precision?: number;
  heading_recall?: number;
  heading_f1?: number;
  heading_levels?: number;
}

/** Result of {@link evaluateDirectories}. */
export interface EvalReport {
  documents: EvalRow[];
  mean: EvalMeans;
}

/** A document's reference: its elements (element JSON), its tables, or both. */
export interface EvalReference {
  /** Absent for a tables-only reference (`{ "tables": [...] }`). */
  elements?: EvalElement[];
  /** Tables with HTML: the Table elements with `metadata.text_as_html`, or the `tables` given. */
  tables: ReferenceTable[];
  /** Table elements without `metadata.text_as_html`: an output table matching one is no false positive. */
  textTables?: Array<{ text: string; pages?: number[] }>;
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function elementsOf(data: unknown[]): EvalElement[] {
  return data.map((x: unknown) => {
    const e = isObject(x) ? x : {};
    const md = isObject(e.metadata) ? e.metadata : {};
    const el: EvalElement = { type: String(e.type ?? ''), text: typeof e.text === 'string' ? e.text : '' };
    if (typeof md.text_as_html === 'string' && md.text_as_html) el.html = md.text_as_html;
    if (typeof md.page_number === 'number') el.page = md.page_number;
    if (typeof md.category_depth === 'number') el.depth = md.category_depth;
    return el;
  });
}

/** The type, text, table HTML, page and heading depth of each element of an element JSON file. */
export async function readElements(path: string): Promise<EvalElement[]> {
  const data = JSON.parse(await readFile(path, 'utf8')) as unknown;
  if (!Array.isArray(data)) throw new Error('not an element array');
  return elementsOf(data);
}

/** The predicted tables among elements. */
export function tablesOfElements(elements: readonly EvalElement[]): PredictedTable[] {
  return elements
    .filter((e) => e.type === 'Table')
    .map((e) => ({ text: e.text, ...(e.html ? { html: e.html } : {}), ...(e.page !== undefined ? { page: e.page } : {}) }));
}

/**
 * Reads a reference file: an element array (as `quarry partition` writes), or an object with
 * `tables` (each with `html` or `cells`, as the ICDAR 2013 dev set's JSON). Throws a UserError
 * naming the file and the field that is wrong.
 */
export async function readReference(path: string): Promise<EvalReference> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (e) {
    throw new UserError(`cannot read reference ${path}: ${(e as Error).message}`);
  }
  try {
    if (Array.isArray(data)) {
      const elements = elementsOf(data);
      const pagesOf = (e: EvalElement) => (e.page !== undefined ? { pages: [e.page] } : {});
      const tables = elements.flatMap((e): ReferenceTable[] => (e.type === 'Table' && e.html ? [{ html: e.html, ...pagesOf(e) }] : []));
      const textTables = elements.filter((e) => e.type === 'Table' && !e.html).map((e) => ({ text: e.text, ...pagesOf(e) }));
      return { elements, tables, textTables };
    }
    return { tables: referenceTablesOf(data) };
  } catch (e) {
    throw new UserError(`reference ${path}: ${(e as Error).message}`);
  }
}

/**
 * The output file of a document in OUT_DIR: `<doc>.json`, or else `<doc>.<ext>.json` (the name
 * `quarry partition` gives `<doc>.<ext>`), so a reference `eu-001.json` scores `eu-001.pdf.json`.
 */
export function outputPathOf(outDir: string, document: string, outNames: readonly string[]): string {
  const exact = `${document}.json`;
  if (outNames.includes(exact)) return join(outDir, exact);
  const withExt = outNames.filter(
    (n) => n.startsWith(`${document}.`) && n.endsWith('.json') && !n.endsWith('.chunks.json') && !n.slice(document.length + 1, -'.json'.length).includes('.'),
  );
  return join(outDir, withExt.length === 1 ? withExt[0]! : exact);
}

function tableStructure(output: readonly EvalElement[], reference: EvalReference): Partial<TableStructureScores> & { found: number } {
  const { tables, textTables = [] } = reference;
  const predicted = tablesOfElements(output);
  if (!tables.length && !predicted.length) return { found: 0 };
  const s = scoreTables(predicted, tables);
  s.false_positives = s.false_positive_tables.filter((i) => !textTables.some((t) => matchesTableText(predicted[i]!, t.text, t.pages))).length;
  const mean = (k: 'teds' | 'teds_s') => (s.tables.length ? s.tables.reduce((a, t) => a + t[k], 0) / s.tables.length : undefined);
  return {
    found: s.tables_found,
    ...(tables.length ? { table_recall: s.tables_found / tables.length, teds: mean('teds'), teds_s: mean('teds_s') } : {}),
    ...(predicted.length ? { table_precision: (predicted.length - s.false_positives) / predicted.length } : {}),
    predicted_tables: predicted.length,
    false_positives: s.false_positives,
    tables: s.tables,
  };
}

/** Scores one document's output against its reference. */
export function scoreAgainstReference(document: string, output: EvalElement[], reference: EvalReference): EvalRow {
  const { found, ...tables } = tableStructure(output, reference);
  if (!reference.elements) return { document, tables_found: found, expected_tables: reference.tables.length, ...tables };
  return { document, ...scoreDocument(output, reference.elements), ...headingScores(output, reference.elements), ...tables };
}

const meanOf = (rows: readonly EvalRow[], k: keyof EvalRow): number | undefined => {
  const xs = rows.flatMap((r) => (typeof r[k] === 'number' ? [r[k] as number] : []));
  return xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : undefined;
};

/** Means over documents, and table scores pooled over all reference tables. */
export function meansOf(documents: readonly EvalRow[]): EvalMeans {
  const perTable = documents.flatMap((d) => d.tables ?? []);
  const withTables = documents.filter((d) => d.tables !== undefined);
  const expected = withTables.reduce((a, d) => a + d.tables!.length, 0);
  const predicted = withTables.reduce((a, d) => a + (d.predicted_tables ?? 0), 0);
  const falsePositives = withTables.reduce((a, d) => a + (d.false_positives ?? 0), 0);
  const means: EvalMeans = {
    tables_found: documents.reduce((a, d) => a + (d.tables_found ?? 0), 0),
    expected_tables: documents.reduce((a, d) => a + (d.expected_tables ?? 0), 0),
  };
  for (const k of ['text_f1', 'order', 'type_agreement'] as const) {
    const m = meanOf(documents, k);
    if (m !== undefined) means[k] = m;
  }
  if (expected) {
    means.table_recall = perTable.filter((t) => t.found).length / expected;
    means.teds = perTable.reduce((a, t) => a + t.teds, 0) / expected;
    means.teds_s = perTable.reduce((a, t) => a + t.teds_s, 0) / expected;
  }
  if (predicted) means.table_precision = (predicted - falsePositives) / predicted;
  for (const k of ['heading_precision', 'heading_recall', 'heading_f1', 'heading_levels'] as const) {
    const m = meanOf(documents, k);
    if (m !== undefined) means[k] = m;
  }
  return means;
}

/** The reference files of EXPECTED_DIR: `<doc>.json`, chunk files left out. */
export async function referenceNames(expectedDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(expectedDir)).filter((n) => n.endsWith('.json') && !n.endsWith('.chunks.json')).sort();
  } catch {
    throw new UserError(`cannot read expected directory ${expectedDir}`);
  }
  if (!names.length) throw new UserError(`no <doc>.json reference files in ${expectedDir}`);
  return names;
}

/**
 * Compares every `<doc>.json` of EXPECTED_DIR (chunk files are ignored) with its output in
 * OUT_DIR (`<doc>.json`, or `<doc>.<ext>.json`). A missing output scores 0.
 */
export async function evaluateDirectories(outDir: string, expectedDir: string): Promise<EvalReport> {
  const names = await referenceNames(expectedDir);
  const outNames = await readdir(outDir).catch(() => [] as string[]);
  const documents: EvalRow[] = [];
  for (const name of names) {
    const document = name.slice(0, -'.json'.length);
    const reference = await readReference(join(expectedDir, name));
    let output: EvalElement[];
    let error: string | undefined;
    try {
      output = await readElements(outputPathOf(outDir, document, outNames));
    } catch (e) {
      error = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no output' : (e as Error).message;
      output = [];
    }
    const row = scoreAgainstReference(document, output, reference);
    if (error !== undefined) {
      row.error = error;
      if (reference.elements)
        Object.assign(row, {
          text_f1: 0,
          order: 0,
          type_agreement: 0,
          tables_found: 0,
          expected_tables: reference.elements.filter((x) => x.type === 'Table').length,
        });
    }
    documents.push(row);
  }
  return { documents, mean: meansOf(documents) };
}
