/**
 * Which PDFium code reads a document: in a fresh process, short documents are read by baseline
 * code that V8 never optimizes (no optimizing compiler at start-up), long ones and everything after
 * the first few dozen pages by code it optimizes. Run in a child process: the choice depends on
 * what the thread has read before.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { makePdf, textLines } from '../fixture.js';
import { corpusDoc, hasCorpus } from '../../helpers.js';

const documentModule = new URL('../../../../../src/partition/formats/pdf/pdfium/document.ts', import.meta.url).href;

/** `optimized` of each document of `files` opened one after the other (each read whole unless `read` is false) in a fresh process. */
function optimizedInFreshProcess(files: Uint8Array[], read = true): boolean[] {
  const script = `
    import { readFileSync } from 'node:fs';
    import { PdfiumDocument } from ${JSON.stringify(documentModule)};
    const out = [];
    for (const base64 of JSON.parse(readFileSync(0, 'utf8'))) {
      const doc = await PdfiumDocument.open(new Uint8Array(Buffer.from(base64, 'base64')));
      for (let p = 1; p <= (${read} ? doc.numPages : 0); p++) await doc.pageText(p);
      out.push(doc.optimized);
      doc.close();
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const input = JSON.stringify(files.map((f) => Buffer.from(f).toString('base64')));
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { input }).toString()) as boolean[];
}

/** How many PDFium modules a fresh process has compiled once it has opened each of `files` in turn (without reading them). */
function compilesInFreshProcess(files: Uint8Array[]): number[] {
  const script = `
    import { readFileSync } from 'node:fs';
    const compile = WebAssembly.compile;
    let compiles = 0;
    // PDFium's module is megabytes; tsx compiles a small one of its own.
    WebAssembly.compile = (bytes) => (bytes.byteLength > 1e6 && compiles++, compile(bytes));
    const { PdfiumDocument } = await import(${JSON.stringify(documentModule)});
    const out = [];
    for (const base64 of JSON.parse(readFileSync(0, 'utf8'))) {
      (await PdfiumDocument.open(new Uint8Array(Buffer.from(base64, 'base64')))).close();
      out.push(compiles);
    }
    process.stdout.write(JSON.stringify(out));
  `;
  const input = JSON.stringify(files.map((f) => Buffer.from(f).toString('base64')));
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { input }).toString()) as number[];
}

const pdfOf = (pages: number): Uint8Array =>
  makePdf(Array.from({ length: pages }, (_, i) => ({ texts: textLines([`Page ${i + 1} of the report.`, 'A second line of body text.']) })));

describe('the PDFium code that reads a document', () => {
  it('is baseline for short documents until 32 pages are read, optimized from then on', () => {
    const two = pdfOf(2);
    // 16 documents of 2 pages fill the baseline quota; the 17th is read by optimized code.
    expect(optimizedInFreshProcess(Array.from({ length: 17 }, () => two))).toEqual([...Array.from({ length: 16 }, () => false), true]);
  });

  it('is optimized for a document of 16 pages or more, and stays so for short ones after it', () => {
    expect(optimizedInFreshProcess([pdfOf(2), pdfOf(16), pdfOf(2)])).toEqual([false, true, true]);
  });

  it('compiles only the optimizing module for a long first document whose page objects its bytes show', () => {
    // Before the page objects were counted, a 16-page file of a few KB was loaded in a baseline
    // instance first: two modules compiled. A short document after it uses the optimizing one.
    expect(compilesInFreshProcess([pdfOf(16), pdfOf(2)])).toEqual([1, 1]);
    expect(compilesInFreshProcess([pdfOf(2), pdfOf(16)])).toEqual([1, 2]);
  });

  it.skipIf(!hasCorpus)('is optimized from the start for a file of 1 MB or more (DA-619p.pdf, 619 pages, 2.9 MB)', () => {
    expect(optimizedInFreshProcess([corpusDoc('DA-619p.pdf')], false)).toEqual([true]);
  });
});
