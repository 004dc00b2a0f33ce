/**
 * A table broken across a page break, in a PDF LibreOffice made (`fixtures/README.md`): each page
 * keeps its own Table element, the later one names the part it continues, and a call on the second
 * page alone (the hosted API client's split mode) gives that page the same element, id included.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { partitionFile, type PartitionFileRequest } from '../../../../src/partition/partition-file.js';

const fixture = new Uint8Array(readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'continued-table.pdf')));

afterAll(async () => {
  await stopPageWorker();
});

const tables = (els: readonly Element[]): Element[] => els.filter((e) => e.type === 'Table');

/** The PDF of one page of `bytes`, as the hosted API's client cuts it. */
async function pageAlone(bytes: Uint8Array, page: number): Promise<Uint8Array> {
  const src = await PDFDocument.load(bytes);
  const out = await PDFDocument.create();
  const [copied] = await out.copyPages(src, [page - 1]);
  out.addPage(copied!);
  return out.save();
}

describe('a table continued on the next page', () => {
  for (const [strategy, engine] of [
    ['fast', 'pdfium'],
    ['fast', 'pdfjs'],
    ['hi_res', 'pdfium'],
  ] as const) {
    it(`${strategy} (${engine}): one Table per page, the second linked to the first`, async () => {
      const request: PartitionFileRequest = { filename: 'continued-table.pdf', strategy, pdf_engine: engine, infer_table_structure: true };
      const found = tables(await partitionFile(fixture, request));
      expect(found).toHaveLength(2);
      const [first, second] = found;
      expect(first!.metadata.page_number).toBe(1);
      expect(second!.metadata.page_number).toBe(2);
      expect(first!.metadata.continues_table_id).toBeUndefined();
      expect(second!.metadata.continues_table_id).toBe(first!.element_id);
      // Each part holds its own page's rows, the header LibreOffice repeats included.
      expect(first!.text).toMatch(/^Station Month Rainfall \(mm\) Mean temperature \(C\) Aberdeen Jan 49\.1 15\.7 /);
      expect(second!.text).toMatch(/^Station Month Rainfall \(mm\) Mean temperature \(C\) Cork /);
      expect(first!.text).not.toContain('Dundee');
      expect(second!.text).not.toContain('Aberdeen');
      expect(second!.text).toMatch(/Dundee May \S+ \S+$/);
      // The header's words, one run of text across three cells, are cut at the cell walls.
      if (strategy === 'hi_res')
        expect(second!.metadata.text_as_html).toMatch(
          /^<table><tr><td>Station<\/td><td>Month<\/td><td>Rainfall \(mm\)<\/td><td>Mean temperature \(C\)<\/td><\/tr><tr><td>Cork<\/td><td>Mar<\/td>/,
        );
    });
  }

  it('the second page read alone gives the same elements and ids there, without the link', async () => {
    const request: PartitionFileRequest = { filename: 'continued-table.pdf', strategy: 'fast', unique_element_ids: false };
    const whole = await partitionFile(fixture, request);
    const alone = await partitionFile(await pageAlone(fixture, 2), { ...request, starting_page_number: 2 });
    const pageTwo = whole.filter((e) => e.metadata.page_number === 2);
    expect(alone.map((e) => [e.element_id, e.type, e.text])).toEqual(pageTwo.map((e) => [e.element_id, e.type, e.text]));
    const [firstPart] = tables(whole);
    expect(tables(pageTwo)[0]!.metadata.continues_table_id).toBe(firstPart!.element_id);
    expect(tables(alone)[0]!.metadata.continues_table_id).toBeUndefined();
  });
});
