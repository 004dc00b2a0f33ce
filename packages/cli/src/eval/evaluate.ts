import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../user-error.js';
import { scoreDocument, type DocumentScores, type EvalElement } from './metrics.js';

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
