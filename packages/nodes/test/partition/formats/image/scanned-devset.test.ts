/**
 * Scans of real pages: born-digital pages of the ICDAR 2013 table competition dev set
 * (`../shared/fidelity/icdar2013-dev`; skipped when absent) rendered at test time with
 * `scanPdfPages` to grey 200 dpi pictures, read by hi_res as image-only PDF pages (no text layer) and
 * as PNGs, so every word comes from OCR.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { scanPdfPages } from '../../../../src/inspect/scan-pages.js';
import { imagePartitioner } from '../../../../src/partition/formats/image/index.js';
import { pdfPartitioner } from '../../../../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { releaseOcrWorkers } from '../../../../src/partition/ocr.js';
import { makeOptions } from '../helpers.js';

const DEV = path.resolve(import.meta.dirname, '../../../../../../../shared/fidelity/icdar2013-dev');
const present = existsSync(DEV);
if (!present) console.warn(`scanned-devset: ${DEV} is absent; the scanned dev-set page tests are skipped`);

afterAll(async () => {
  await releaseOcrWorkers();
  await stopPageWorker();
});

type Container = 'pdf' | 'png';

/** Page `page` of a dev-set document, scanned and partitioned with hi_res from `container`. */
async function scanned(doc: string, page: number, container: Container): Promise<Element[]> {
  const [scan] = await scanPdfPages(new Uint8Array(readFileSync(path.join(DEV, `${doc}.pdf`))), [page], `${doc}.pdf`);
  const name = `${doc}-p${page}.${container}`;
  const options = makeOptions(name, { strategy: 'hi_res', infer_table_structure: true });
  if (container === 'png') return imagePartitioner.partition(scan!.png, options);
  const pdf = await PDFDocument.create();
  const image = await pdf.embedPng(scan!.png);
  pdf.addPage([scan!.widthPoints, scan!.heightPoints]).drawImage(image, { x: 0, y: 0, width: scan!.widthPoints, height: scan!.heightPoints });
  return pdfPartitioner.partition(await pdf.save(), options);
}

/** The cell texts of a table's first row. */
function firstRow(table: Element): string[] {
  const tr = /<tr>(.*?)<\/tr>/.exec(table.metadata.text_as_html ?? '')?.[1] ?? '';
  return [...tr.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!);
}

describe.skipIf(!present)('scanned pages of the ICDAR 2013 dev set', () => {
  it('us-027 p2 (pdf): a heading set apart by weight alone is a Title, the body around it NarrativeText', { timeout: 300_000 }, async () => {
    const elements = await scanned('us-027', 2, 'pdf');
    const at = elements.findIndex((e) => e.text === 'IHE Campus Crime');
    expect(elements[at]?.type).toBe('Title');
    expect(elements[at + 1]?.type).toBe('NarrativeText');
    expect(elements[at + 1]!.text).toMatch(/^Maintaining the safety of IHEs/);
    expect(elements.filter((e) => e.type === 'Title')).toHaveLength(1);
  });

  for (const container of ['pdf', 'png'] as const) {
    it(`eu-019 p3 (${container}): the header printed white on a grey band is the table's first row`, { timeout: 300_000 }, async () => {
      const elements = await scanned('eu-019', 3, container);
      const tables = elements.filter((e) => e.type === 'Table');
      expect(tables).toHaveLength(1);
      expect(firstRow(tables[0]!)).toEqual(['Country', 'Domestic (%)', 'Imported (%)', 'Unknown (%)', 'Total (n)']);
      // The first body row, right under the band, is in the table too.
      expect(tables[0]!.metadata.text_as_html).toContain('<tr><td>Austria</td><td>0</td><td>100</td><td>0</td><td>1</td></tr>');
    });

    it(`eu-016 p3 (${container}): a justified paragraph beside a table's column gaps is one element`, { timeout: 300_000 }, async () => {
      const elements = await scanned('eu-016', 3, container);
      const paragraph = elements.find((e) => e.text.startsWith('As in previous years'));
      expect(paragraph?.type).toBe('NarrativeText');
      expect(paragraph!.text).toContain('the two most common Salmonella serovars in 2007 were S. Enteritidis and S. Typhimurium');
      expect(paragraph!.text).toMatch(/as in the previous year\.$/);
      expect(elements.length).toBeLessThanOrEqual(10);
      expect(firstRow(elements.find((e) => e.type === 'Table')!)).toEqual(['Country', 'Domestic (%)', 'Imported (%)', 'Unknown (%)', 'Total (n)']);
    });

    it(`eu-004 p3 (${container}): the lines of double-spaced paragraphs join`, { timeout: 300_000 }, async () => {
      const elements = await scanned('eu-004', 3, container);
      const paragraph = elements.find((e) => e.text.startsWith('Given that a larger inhabitant per outlet ratio'));
      expect(paragraph?.type).toBe('NarrativeText');
      expect(paragraph!.text).toMatch(/greatest in Italy and Spain\.$/);
      expect(elements.find((e) => e.text.startsWith('To add a wider perspective'))!.text).toMatch(/judged by average turnover\.$/);
    });
  }
});
