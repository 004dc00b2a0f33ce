/** Writing `quarry eval --html`'s report, and with `--docs`, the inspection report of each document. */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { elementsFromJSON, errorMessage, isQuarryError } from '@quarry/core';
import { renderInspection } from '@quarry/nodes';
import { readElements, type EvalReport } from './evaluate.js';
import { UserError } from '../user-error.js';
import { renderEvalReport, type EvalDocumentElements } from './report-html.js';

async function writeAtomically(target: string, text: string): Promise<void> {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(tmp, text);
    await rename(tmp, target);
  } catch (e) {
    throw new UserError(`cannot write ${target}: ${errorMessage(e)}`);
  }
}

/**
 * Writes the inspection report of one document's output into `dir`; returns its path, or undefined
 * (with a warning) when the document cannot be pictured.
 */
async function writeInspection(document: string, outFile: string, source: string, dir: string): Promise<string | undefined> {
  try {
    const elements = elementsFromJSON(JSON.parse(await readFile(outFile, 'utf8')), { source: outFile });
    const html = await renderInspection(elements, await readFile(source), { filename: document, caption: `output ${outFile}` });
    const target = join(dir, `${document}.html`);
    await writeAtomically(target, html);
    return target;
  } catch (e) {
    process.stderr.write(`quarry: warning: no inspection report for ${document}: ${isQuarryError(e) ? `${e.code}: ` : ''}${errorMessage(e)}\n`);
    return undefined;
  }
}

/**
 * The HTML report at `target`, and with `docs`, the inspection report of each document found
 * there, in `<report name>.inspect/` beside it.
 */
export async function writeHtmlReport(report: EvalReport, outDir: string, expectedDir: string, target: string, docs?: string): Promise<void> {
  const inspectDir = join(dirname(target), `${basename(target).replace(/\.html?$/i, '')}.inspect`);
  const documents: EvalDocumentElements[] = [];
  for (const row of report.documents) {
    const name = `${row.document}.json`;
    const expected = await readElements(join(expectedDir, name));
    const ours = row.error ? [] : await readElements(join(outDir, name));
    const doc: EvalDocumentElements = { document: row.document, ours, expected };
    const source = docs ? join(docs, row.document) : undefined;
    if (source && !row.error && existsSync(source)) {
      const written = await writeInspection(row.document, join(outDir, name), source, inspectDir);
      if (written) doc.inspectHref = relative(dirname(target), written).split(sep).map(encodeURIComponent).join('/');
    }
    documents.push(doc);
  }
  await writeAtomically(target, renderEvalReport(report, documents, { outDir, expectedDir }));
  process.stderr.write(`report written to ${target}\n`);
}
