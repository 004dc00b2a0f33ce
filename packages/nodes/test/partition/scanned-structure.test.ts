/**
 * Scanned pages typed as their born-digital originals are: born-digital pages of the ICDAR 2013 dev
 * set (`../shared/fidelity/icdar2013-dev`; skipped when absent) rendered to grey 200 dpi pictures with
 * `scanPdfPages` and read by hi_res as image-only PDF pages and as PNGs, so every word comes from OCR,
 * against the same page partitioned from its text layer.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { scanPdfPages } from '../../src/inspect/scan-pages.js';
import { imagePartitioner } from '../../src/partition/formats/image/index.js';
import { pdfPartitioner } from '../../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../../src/partition/formats/pdf/page-worker-host.js';
import { releaseOcrWorkers } from '../../src/partition/ocr.js';
import { makeOptions } from './formats/helpers.js';

const DEV = path.resolve(import.meta.dirname, '../../../../../shared/fidelity/icdar2013-dev');
const present = existsSync(DEV);
if (!present) console.warn(`scanned-structure: ${DEV} is absent; its tests are skipped`);

afterAll(async () => {
  await releaseOcrWorkers();
  await stopPageWorker();
});

const bytesOf = (doc: string): Uint8Array => new Uint8Array(readFileSync(path.join(DEV, `${doc}.pdf`)));

/** Page `page` of a dev-set document, scanned and partitioned with hi_res from `container`. */
async function scanned(doc: string, page: number, container: 'pdf' | 'png'): Promise<Element[]> {
  const [scan] = await scanPdfPages(bytesOf(doc), [page], `${doc}.pdf`);
  const options = makeOptions(`${doc}-p${page}.${container}`, { strategy: 'hi_res', infer_table_structure: true });
  if (container === 'png') return imagePartitioner.partition(scan!.png, options);
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(scan!.png);
  pdf.addPage([scan!.widthPoints, scan!.heightPoints]).drawImage(image, { x: 0, y: 0, width: scan!.widthPoints, height: scan!.heightPoints });
  return pdfPartitioner.partition(await pdf.save(), options);
}

/** The elements of page `page` of a dev-set document read from its text layer. */
async function bornDigital(doc: string, page: number): Promise<Element[]> {
  const elements = await pdfPartitioner.partition(bytesOf(doc), makeOptions(`${doc}.pdf`, { strategy: 'hi_res', infer_table_structure: true }));
  return elements.filter((e) => e.metadata.page_number === page);
}

const words = (text: string): string[] => text.toLowerCase().match(/\p{L}{2,}/gu) ?? [];

describe.skipIf(!present)('scanned pages typed as their born-digital originals', () => {
  for (const container of ['pdf', 'png'] as const) {
    it(`eu-015 p2 (${container}): no Title is made of specks of its logos and charts`, { timeout: 300_000 }, async () => {
      const original = new Set((await bornDigital('eu-015', 2)).flatMap((e) => words(e.text)));
      const titles = (await scanned('eu-015', 2, container)).filter((e) => e.type === 'Title');
      expect(titles.length).toBeGreaterThan(0);
      // A Title's words are words of the page's text; OCR noise ("moi:", "FE") is not.
      expect(titles.filter((t) => !words(t.text).every((w) => original.has(w))).map((t) => t.text)).toEqual([]);
    });

    it(`eu-004 p3 (${container}): the bulleted paragraph is a ListItem without its bullet, as from the text layer`, { timeout: 300_000 }, async () => {
      const items = (await bornDigital('eu-004', 3)).filter((e) => e.type === 'ListItem');
      expect(items.length).toBeGreaterThan(0);
      const elements = await scanned('eu-004', 3, container);
      for (const item of items) {
        const lead = words(item.text).slice(0, 3).join(' ');
        const ours = elements.find((e) => words(e.text).slice(0, 3).join(' ') === lead);
        expect(ours?.type, item.text).toBe('ListItem');
        expect(ours!.text.split(/\s+/)[0]).toBe(item.text.split(/\s+/)[0]);
      }
    });
  }

  it('us-027 p2 (png): the heading set apart by weight alone is the Title, as from the text layer, and nothing else', { timeout: 300_000 }, async () => {
    const titles = (await bornDigital('us-027', 2)).filter((e) => e.type === 'Title');
    expect(titles.length).toBeGreaterThan(0);
    const elements = await scanned('us-027', 2, 'png');
    expect(elements.filter((e) => e.type === 'Title').map((e) => e.text)).toEqual(titles.map((t) => t.text));
  });
});
