/**
 * The PDFium engine of the fast strategy against the pdf.js engine: the same elements on real
 * documents, the same failure kinds, rotated pages read upright, and the engine option.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { pdfPartitioner } from '../../../../../src/partition/formats/pdf/index.js';
import type { PdfEngine } from '../../../../../src/partition/formats/pdf/engine.js';
import { PdfOpenError } from '../../../../../src/partition/formats/pdf/pdfjs/load.js';
import { stopPageWorker } from '../../../../../src/partition/formats/pdf/page-worker-host.js';
import { extractLayouts } from '../../../../../src/partition/formats/pdf/extract-pages.js';
import { PdfiumDocument } from '../../../../../src/partition/formats/pdf/pdfium/document.js';
import { instantiatePdfium } from '../../../../../src/partition/formats/pdf/pdfium/module.js';
import { partitionFile } from '../../../../../src/partition/partition-file.js';
import { formatOptions } from '../../../format-options.js';
import { makePdf, textLines } from '../fixture.js';
import { corpusDir, corpusDoc, hasCorpus } from '../../helpers.js';

afterAll(async () => {
  await stopPageWorker();
});

async function fast(bytes: Uint8Array, engine: PdfEngine): Promise<Array<Pick<Element, 'type' | 'text'>>> {
  const els = await pdfPartitioner.partition(bytes, {
    ...formatOptions({ strategy: 'fast', filename: 'f.pdf', filetype: 'application/pdf' }),
    pdf_engine: engine,
  });
  return els.map((e) => ({ type: e.type, text: e.text }));
}

/** Opens with PDFium and returns the failure. */
async function openFailure(bytes: Uint8Array, options: { password?: string; maxPages?: number } = {}): Promise<PdfOpenError> {
  const e = await PdfiumDocument.open(bytes, options).then(
    (d) => {
      d.close();
      return undefined;
    },
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(PdfOpenError);
  return e as PdfOpenError;
}

describe('the PDFium engine', () => {
  it('reads a generated page into the same elements as pdf.js', async () => {
    const bytes = makePdf([
      {
        texts: [
          { x: 72, y: 740, size: 18, text: 'Quarterly Report', bold: true },
          ...textLines(['The first paragraph runs over', 'two lines of body text.'], 72, 11, 700),
        ],
      },
    ]);
    const pdfium = await fast(bytes, 'pdfium');
    expect(pdfium).toEqual(await fast(bytes, 'pdfjs'));
    expect(pdfium.map((e) => e.text)).toEqual(['Quarterly Report', 'The first paragraph runs over two lines of body text.']);
    // Each engine really read the page (font identities are the engine's own).
    const fonts = async (engine: PdfEngine) => (await extractLayouts(bytes, { engine }))[0]!.blocks.map((b) => b.font);
    expect(await fonts('pdfium')).toEqual([expect.stringMatching(/^pdfium-font-/), expect.stringMatching(/^pdfium-font-/)]);
    expect(await fonts('pdfjs')).toEqual([expect.stringMatching(/^g_/), expect.stringMatching(/^g_/)]);
  });

  it('fails like pdf.js: a user password, a wrong password, a broken file, too many pages', async () => {
    const locked = makePdf([{ texts: textLines(['secret']) }], { encrypt: { user: 'u', owner: 'o' } });
    expect((await openFailure(locked)).message).toMatch(/encrypted with a user password/);
    expect((await openFailure(locked)).kind).toBe('password');
    expect((await openFailure(locked, { password: 'nope' })).message).toMatch(/the given password is incorrect/);
    const open = await PdfiumDocument.open(locked, { password: 'u' });
    expect((await open.pageText(1)).fragments.map((f) => f.text)).toEqual(['secret']);
    open.close();
    expect((await openFailure(new TextEncoder().encode('%PDF-1.7\nnot a pdf at all'))).kind).toBe('unreadable');
    const two = makePdf([{ texts: textLines(['one']) }, { texts: textLines(['two']) }]);
    const tooMany = await openFailure(two, { maxPages: 1 });
    expect(tooMany.kind).toBe('too-many-pages');
    expect(tooMany.pages).toBe(2);
    await expect(partitionFile(locked, { filename: 'locked.pdf', strategy: 'fast', pdf_engine: 'pdfium' })).rejects.toMatchObject({
      code: 'PDF_PASSWORD_REQUIRED',
    });
  });

  it('rejects an unknown engine name', async () => {
    const bytes = makePdf([{ texts: textLines(['x']) }]);
    await expect(partitionFile(bytes, { filename: 'x.pdf', pdf_engine: 'mupdf' as PdfEngine })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('stops at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const bytes = makePdf([{ texts: textLines(['x']) }]);
    await expect(partitionFile(bytes, { filename: 'x.pdf', strategy: 'fast', pdf_engine: 'pdfium', signal: ac.signal })).rejects.toMatchObject({
      code: 'JOB_ABORTED',
    });
  });
});

describe.skipIf(!hasCorpus)('the PDFium engine on the corpus (skipped: ../shared/corpus absent)', () => {
  for (const name of ['embedded-images.pdf', 'embedded-images-tables.pdf', 'all-number-table.pdf', 'reliance.pdf']) {
    it(`${name}: the same elements as pdf.js`, async () => {
      const bytes = corpusDoc(name);
      expect(await fast(bytes, 'pdfium')).toEqual(await fast(bytes, 'pdfjs'));
    });
  }

  it('reads rotated, slanted and CID-font pages of the hard cases as pdf.js does', async () => {
    for (const name of ['issue5747.pdf', 'issue16063.pdf', 'bug1795263.pdf']) {
      const bytes = new Uint8Array(readFileSync(path.join(corpusDir, 'hard', name)));
      expect(await fast(bytes, 'pdfium')).toEqual(await fast(bytes, 'pdfjs'));
    }
  });

  // Reading a page asks PDFium whether a character is generated only for spaces.
  it('PDFium generates no character but spaces and line breaks', async () => {
    const pdfium = await instantiatePdfium();
    const { x } = pdfium;
    const files = [
      ...['DA-619p.pdf', 'embedded-images.pdf', 'korean-text-with-tables.pdf', 'multi-column-2p.pdf', 'reliance.pdf'].map((name) =>
        path.join(corpusDir, 'docs', name),
      ),
      ...['bug1795263.pdf', 'bug1815476.pdf', 'issue16063.pdf', 'issue5747.pdf'].map((name) => path.join(corpusDir, 'hard', name)),
    ];
    const generated = new Set<number>();
    let normal = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      const data = x.malloc(bytes.length);
      pdfium.u8().set(bytes, data);
      const doc = x.FPDF_LoadMemDocument(data, bytes.length, 0);
      expect(doc, file).not.toBe(0);
      for (let p = 0; p < x.FPDF_GetPageCount(doc); p++) {
        const page = x.FPDF_LoadPage(doc, p);
        const tp = x.FPDFText_LoadPage(page);
        for (let i = 0; i < x.FPDFText_CountChars(tp); i++) {
          if (x.FPDFText_IsGenerated(tp, i) === 1) generated.add(x.FPDFText_GetUnicode(tp, i));
          else normal++;
        }
        x.FPDFText_ClosePage(tp);
        x.FPDF_ClosePage(page);
      }
      x.FPDF_CloseDocument(doc);
      x.free(data);
    }
    expect(normal).toBeGreaterThan(1_000_000);
    expect([...generated].sort((a, b) => a - b)).toEqual([0x0a, 0x0d, 0x20]);
  }, 120_000);

  // PDFium reads the fonts' weights, pdf.js's text layer does not: there a change of font stands in
  // for bold, so italic lines ("—Sarethia, hahren of the Highever alienage") become Titles with
  // pdf.js only. Everything else is the same.
  it('DA-619p.pdf: the same text and elements as pdf.js on every one of its 619 pages, headings aside', async () => {
    const bytes = corpusDoc('DA-619p.pdf');
    const pdfium = await fast(bytes, 'pdfium');
    const pdfjs = await fast(bytes, 'pdfjs');
    expect(pdfium.length).toBeGreaterThan(9000);
    expect(pdfium.map((e) => e.text)).toEqual(pdfjs.map((e) => e.text));
    const headingsAside = (els: typeof pdfium) =>
      els.map((e) => (e.type === 'Title' || e.type === 'UncategorizedText' || e.type === 'NarrativeText' ? 'text' : e.type));
    expect(headingsAside(pdfium)).toEqual(headingsAside(pdfjs));
    const titles = (els: typeof pdfium) => els.filter((e) => e.type === 'Title').length;
    expect(titles(pdfium)).toBeLessThan(titles(pdfjs));
  }, 300_000);
});
