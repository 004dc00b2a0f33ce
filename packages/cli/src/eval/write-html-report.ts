/** Writing `quarry eval --html`'s report, and with `--docs`, the inspection report of each document. */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { elementsFromJSON, errorMessage, isQuarryError } from '@quarry/core';
import { renderInspection } from '@quarry/nodes';
import { outputPathOf, readElements, readReference, tablesOfElements, type EvalReport } from './evaluate.js';
import { writeAtomically } from './write-atomically.js';
import { renderEvalReport, type EvalDocumentElements, type EvalTablePair } from './report-html.js';

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
  const outNames = await readdir(outDir).catch(() => [] as string[]);
  for (const row of report.documents) {
    const reference = await readReference(join(expectedDir, `${row.document}.json`));
    const outFile = outputPathOf(outDir, row.document, outNames);
    const ours = row.error ? [] : await readElements(outFile);
    const doc: EvalDocumentElements = { document: row.document, ours, ...(reference.elements ? { expected: reference.elements } : {}) };
    if (row.tables?.length) {
      const predicted = tablesOfElements(ours);
      doc.tables = row.tables.map((result): EvalTablePair => {
        const html = result.predicted >= 0 ? predicted[result.predicted]?.html : undefined;
        return { result, reference: reference.tables[result.index]!.html, ...(html ? { ours: html } : {}) };
      });
    }
    // A reference named after the document without its extension (eu-001.json for eu-001.pdf) finds the document by the output's name.
    const docName = basename(outFile).slice(0, -'.json'.length);
    const source = docs ? join(docs, docName) : undefined;
    if (source && !row.error && existsSync(source)) {
      const written = await writeInspection(docName, outFile, source, inspectDir);
      if (written) doc.inspectHref = relative(dirname(target), written).split(sep).map(encodeURIComponent).join('/');
    }
    documents.push(doc);
  }
  await writeAtomically(target, renderEvalReport(report, documents, { outDir, expectedDir }));
  process.stderr.write(`report written to ${target}\n`);
}
