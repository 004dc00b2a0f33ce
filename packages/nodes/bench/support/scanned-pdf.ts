/**
 * The scanned multi-page PDF of the hi_res bench, built at run time (the corpus holds one scanned
 * page), and the comparison of two runs' elements.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';

/** Writes a PDF of `pages` copies of the first page of `source` into `dir`; returns its path. */
export async function repeatPage(source: string, pages: number, dir: string): Promise<string> {
  const src = await PDFDocument.load(await readFile(source));
  const out = await PDFDocument.create();
  for (const page of await out.copyPages(src, Array<number>(pages).fill(0))) out.addPage(page);
  const file = path.join(dir, `${path.basename(source, '.pdf')}-x${pages}.pdf`);
  await writeFile(file, await out.save());
  return file;
}

interface OutputElement {
  type: string;
  text: string;
  metadata?: { page_number?: number };
}

/** What two runs must agree on: each element's type, text and page, in order. */
export async function elementSummary(outputJson: string): Promise<string> {
  const elements = JSON.parse(await readFile(outputJson, 'utf8')) as OutputElement[];
  return JSON.stringify(elements.map((e) => [e.type, e.text, e.metadata?.page_number]));
}
