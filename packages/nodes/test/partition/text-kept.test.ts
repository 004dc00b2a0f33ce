/**
 * Nothing of a page's text is lost on the way to elements: every character of a born-digital page's
 * text layer comes out in some element of that page (ruled tables give text in their box that falls
 * in no cell back to the text), and the words of a scanned table's row that OCR reads beside a
 * column of running text end in the table. Real documents: the ICDAR 2013 dev set
 * (`../shared/fidelity/icdar2013-dev`; skipped when absent).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { scanPdfPages } from '../../src/inspect/scan-pages.js';
import { imagePartitioner } from '../../src/partition/formats/image/index.js';
import { pdfPartitioner } from '../../src/partition/formats/pdf/index.js';
import { PdfiumDocument } from '../../src/partition/formats/pdf/pdfium/document.js';
import { stopPageWorker } from '../../src/partition/formats/pdf/page-worker-host.js';
import { releaseOcrWorkers } from '../../src/partition/ocr.js';
import { makeOptions } from './formats/helpers.js';

const DEV = path.resolve(import.meta.dirname, '../../../../../shared/fidelity/icdar2013-dev');
const present = existsSync(DEV);
if (!present) console.warn(`text-kept: ${DEV} is absent; its tests are skipped`);

afterAll(async () => {
  await releaseOcrWorkers();
  await stopPageWorker();
});

const chars = (text: string): string[] => [...text.normalize('NFKC').replace(/\s+/g, '')];

// What the partitioner drops on purpose: a list item's bullet, a hyphen joining a word broken at a line's end.
const BULLET_RE = /^[•*\-–·▪◦●■\uf0b7](?:\s|$)|^\*/u;
const BREAK_HYPHEN_RE = /[-\u00ad\u2010]$/u;

/** Per page, the characters of the PDF's text layer that no element of that page holds. */
async function lostCharacters(bytes: Uint8Array, elements: readonly Element[]): Promise<Map<number, string[]>> {
  const doc = await PdfiumDocument.open(bytes);
  const lost = new Map<number, string[]>();
  try {
    for (let p = 1; p <= doc.numPages; p++) {
      const want = new Map<string, number>();
      for (const f of (await doc.pageText(p)).fragments) {
        let text = f.text.trim();
        if (BULLET_RE.test(text)) text = text.slice(1);
        if (BREAK_HYPHEN_RE.test(text)) text = text.slice(0, -1);
        for (const c of chars(text.replace(/\u00ad/g, ''))) want.set(c, (want.get(c) ?? 0) + 1);
      }
      for (const e of elements) if ((e.metadata.page_number ?? 1) === p) for (const c of chars(e.text)) want.set(c, (want.get(c) ?? 0) - 1);
      const missing = [...want].filter(([, n]) => n > 0).map(([c, n]) => `${c}x${n}`);
      if (missing.length > 0) lost.set(p, missing);
    }
  } finally {
    doc.close();
  }
  return lost;
}

describe.skipIf(!present)('no text is lost', () => {
  const docs = present ? readdirSync(DEV).filter((f) => f.endsWith('.pdf')) : [];

  it('every character of every dev-set page comes out in an element of its page (fast)', { timeout: 300_000 }, async () => {
    const lost: Record<string, Record<number, string[]>> = {};
    for (const name of docs) {
      const bytes = new Uint8Array(readFileSync(path.join(DEV, name)));
      const elements = await pdfPartitioner.partition(bytes, makeOptions(name, { strategy: 'fast' }));
      const pages = await lostCharacters(bytes, elements);
      if (pages.size > 0) lost[name] = Object.fromEntries(pages);
    }
    expect(lost).toEqual({});
  });

  it('hi_res with tables keeps every character of pages with ruled tables', { timeout: 300_000 }, async () => {
    for (const name of ['eu-015.pdf', 'eu-021.pdf', 'us-028.pdf']) {
      const bytes = new Uint8Array(readFileSync(path.join(DEV, name)));
      const elements = await pdfPartitioner.partition(bytes, makeOptions(name, { strategy: 'hi_res', infer_table_structure: true }));
      expect(Object.fromEntries(await lostCharacters(bytes, elements)), name).toEqual({});
    }
  });

  // us-028 p2: a ruled table beside a column of running text; OCR reads a row of the table and the
  // column's line beside it as one line, which ran into the table's box from outside.
  const reference = present
    ? (JSON.parse(readFileSync(path.join(DEV, 'us-028.json'), 'utf8')) as { tables: { page: number; html: string }[] }).tables.find((t) => t.page === 2)!
    : undefined;
  const cellTexts = (html: string): string[] => [...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

  for (const container of ['pdf', 'png'] as const) {
    it(`us-028 p2 scanned (${container}): every reference cell OCR reads is in the table, and the row beside the text column is kept`, {
      timeout: 300_000,
    }, async () => {
      const [scan] = await scanPdfPages(new Uint8Array(readFileSync(path.join(DEV, 'us-028.pdf'))), [2], 'us-028.pdf');
      const options = makeOptions(`us-028-p2.${container}`, { strategy: 'hi_res', infer_table_structure: true });
      let elements: Element[];
      if (container === 'png') elements = await imagePartitioner.partition(scan!.png, options);
      else {
        const pdf = await PDFDocument.create();
        const image = await pdf.embedPng(scan!.png);
        pdf.addPage([scan!.widthPoints, scan!.heightPoints]).drawImage(image, { x: 0, y: 0, width: scan!.widthPoints, height: scan!.heightPoints });
        elements = await pdfPartitioner.partition(await pdf.save(), options);
      }
      const tables = elements.filter((e) => e.type === 'Table');
      expect(tables).toHaveLength(1);
      const ours = cellTexts(tables[0]!.metadata.text_as_html ?? '');
      const all = elements.map((e) => e.text).join(' ');
      // The row labels (figures are found anywhere in the page's text, whatever their place).
      const labels = cellTexts(reference!.html).filter((c) => /\p{L}{4}/u.test(c));
      const read = labels.filter((c) => all.includes(c));
      // OCR misreads a label now and then ("Employee"); the others are read, and read into the table.
      expect(read.length).toBeGreaterThanOrEqual(labels.length - 1);
      expect(read.filter((c) => !ours.includes(c))).toEqual([]);
      const row = /<tr><td>Administrative or Academic<\/td>.*?<\/tr>/.exec(reference!.html)![0];
      expect(tables[0]!.metadata.text_as_html).toContain(row);
    });
  }
});
