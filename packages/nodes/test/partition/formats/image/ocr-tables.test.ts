import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Element } from '@quarry/core';
import { imagePartitioner } from '../../../../src/partition/formats/image/index.js';
import { pdfPartitioner } from '../../../../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { releaseOcrWorkers } from '../../../../src/partition/ocr.js';
import { findRasterRulings } from '../../../../src/partition/raster-rulings.js';
import { loadSharp } from '../../../../src/partition/formats/image/decode.js';
import { makeOptions } from '../helpers.js';

afterAll(async () => {
  await releaseOcrWorkers();
  await stopPageWorker();
});

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(fixtures, name)));

// The table of fixtures/scanned-table.html: a two-row header ("Region" and "Staff" span both rows,
// "Sales" spans the two year columns), four body rows.
const EXPECTED_HTML =
  '<table><tr><td rowspan="2">Region</td><td colspan="2">Sales</td><td rowspan="2">Staff</td></tr>' +
  '<tr><td>2023</td><td>2024</td></tr>' +
  '<tr><td>North</td><td>1,200</td><td>1,450</td><td>12</td></tr>' +
  '<tr><td>South</td><td>980</td><td>1,010</td><td>9</td></tr>' +
  '<tr><td>West</td><td>2,310</td><td>2,560</td><td>21</td></tr>' +
  '<tr><td>Total</td><td>4,490</td><td>5,020</td><td>42</td></tr></table>';

// The tables of fixtures/scanned-two-tables.fodt: one framed and ruled between its rows only, one
// set without any rule.
const ROW_RULED_HTML =
  '<table><tr><td>Depot</td><td>Vans</td><td>Trucks</td><td>Drivers</td></tr>' +
  '<tr><td>Leeds</td><td>14</td><td>6</td><td>25</td></tr><tr><td>York</td><td>9</td><td>3</td><td>13</td></tr>' +
  '<tr><td>Hull</td><td>11</td><td>8</td><td>22</td></tr><tr><td>Selby</td><td>4</td><td>1</td><td>6</td></tr>' +
  '<tr><td>Goole</td><td>7</td><td>2</td><td>10</td></tr><tr><td>Ripon</td><td>5</td><td>0</td><td>6</td></tr>' +
  '<tr><td>Total</td><td>50</td><td>20</td><td>82</td></tr></table>';
const UNRULED_HTML =
  '<table><tr><td>Quarter</td><td>Diesel</td><td>Petrol</td><td>Electric</td></tr>' +
  '<tr><td>First</td><td>3,120</td><td>410</td><td>95</td></tr><tr><td>Second</td><td>2,980</td><td>385</td><td>130</td></tr>' +
  '<tr><td>Third</td><td>3,240</td><td>402</td><td>171</td></tr><tr><td>Fourth</td><td>3,305</td><td>398</td><td>204</td></tr></table>';

/** The table element and the rest, checking the table's words are not repeated outside it. */
function checkScannedTable(elements: readonly Element[]): void {
  const tables = elements.filter((e) => e.type === 'Table');
  expect(tables).toHaveLength(1);
  expect(tables[0]!.metadata.text_as_html).toBe(EXPECTED_HTML);
  const rest = elements.filter((e) => e.type !== 'Table').map((e) => e.text);
  expect(rest.join(' ')).toContain('Regional sales');
  expect(rest.join(' ')).toContain('Sales grew in every region');
  for (const cell of ['1,200', '4,490', 'North', 'Total']) expect(rest.join(' ')).not.toContain(cell);
  // In reading order: the paragraph before the table, the table, the sentence after it.
  const order = elements.map((e) => (e.type === 'Table' ? 'table' : e.text.slice(0, 12)));
  expect(order.indexOf('table')).toBeGreaterThan(order.findIndex((t) => t.startsWith('The table')));
  expect(order.indexOf('table')).toBeLessThan(order.findIndex((t) => t.startsWith('Sales grew')));
}

describe('findRasterRulings', () => {
  it('reads the grid of a scanned table, and no letter stroke, as ruling lines', async () => {
    const sharp = await loadSharp();
    const { data, info } = await sharp(Buffer.from(fixture('scanned-table.png')))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rulings = findRasterRulings(data, info.width, info.height, 1);
    const horizontal = rulings.filter((r) => r.y0 === r.y1).sort((a, b) => a.y0 - b.y0);
    const vertical = rulings.filter((r) => r.x0 === r.x1).sort((a, b) => a.x0 - b.x0);
    // Seven rules across (one under "Sales" over two columns only), five walls down (the one between
    // the years from the second header row).
    expect(horizontal).toHaveLength(7);
    expect(vertical).toHaveLength(5);
    const tableWidth = horizontal[0]!.x1 - horizontal[0]!.x0;
    expect(horizontal[1]!.x1 - horizontal[1]!.x0).toBeLessThan(tableWidth / 2);
    expect(vertical[2]!.y0).toBeGreaterThan(vertical[0]!.y0 + 20);
    for (const v of vertical) expect(v.y1).toBeCloseTo(vertical[0]!.y1, -1);
  });
});

describe('scanned tables', () => {
  // One column of ruled rows is no chart's gridlines: its columns come from the text's alignment,
  // and the table is one, not cut where a finder gave up on the grid. The unruled table is read by
  // the same alignment finder in both containers (the caption above it is no row of it).
  for (const [container, name] of [
    ['a PNG', 'scanned-two-tables.png'],
    ['an image-only PDF page', 'scanned-two-tables.pdf'],
  ] as const) {
    it(`rebuilds a table ruled between its rows only and an unruled one from ${container}`, { timeout: 300_000 }, async () => {
      const partitioner = name.endsWith('.pdf') ? pdfPartitioner : imagePartitioner;
      const elements = await partitioner.partition(fixture(name), makeOptions(name, { strategy: 'hi_res', infer_table_structure: true }));
      const tables = elements.filter((e) => e.type === 'Table').map((e) => e.metadata.text_as_html);
      expect(tables).toEqual([ROW_RULED_HTML, UNRULED_HTML]);
      const rest = elements.filter((e) => e.type !== 'Table').map((e) => e.text);
      expect(rest.join(' ')).toContain('Electric use doubled over the year.');
      for (const cell of ['Goole', '3,305', 'Diesel']) expect(rest.join(' ')).not.toContain(cell);
    });
  }

  it('rebuilds a ruled table with its spans from a PNG', { timeout: 300_000 }, async () => {
    const elements = await imagePartitioner.partition(fixture('scanned-table.png'), makeOptions('scanned-table.png', { infer_table_structure: true }));
    checkScannedTable(elements);
  });

  it('rebuilds the same table from an image-only PDF page (hi_res OCR)', { timeout: 300_000 }, async () => {
    const elements = await pdfPartitioner.partition(
      fixture('scanned-table.pdf'),
      makeOptions('scanned-table.pdf', { strategy: 'hi_res', infer_table_structure: true }),
    );
    checkScannedTable(elements);
  });
});
