import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { xlsxPartitioner } from '../../../src/partition/formats/xlsx.js';
import { compareToReference, corpusDoc, hasCorpus, makeOptions, partitionError } from './helpers.js';

async function toBytes(wb: ExcelJS.Workbook): Promise<Uint8Array> {
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('xlsxPartitioner', () => {
  it('splits a sheet into title rows, a table and trailing notes; sheets give page_name and page_number', async () => {
    const wb = new ExcelJS.Workbook();
    const s1 = wb.addWorksheet('Sales');
    s1.getCell('A1').value = 'Regional Sales';
    s1.mergeCells('A1:C1');
    s1.addRow([]);
    s1.getRow(2).values = ['Region', 'Units', 'Revenue'];
    s1.getRow(3).values = ['North', 12, 1500.5];
    s1.getRow(4).values = ['South', 7, { formula: 'B4*100', result: 700 }];
    s1.getRow(5).values = ['Figures are audited and final for the year.'];
    const s2 = wb.addWorksheet('Notes');
    s2.getCell('B2').value = 'Inventory Summary';
    s2.getCell('B3').value = 'x';
    s2.getCell('C3').value = true;
    // A separate region further down.
    s2.getCell('E10').value = 'Key';
    s2.getCell('F10').value = 'Value';
    s2.getCell('E11').value = { richText: [{ text: 'bold ' }, { text: 'part' }] };
    s2.getCell('F11').value = new Date(Date.UTC(2023, 5, 30));
    const els = await xlsxPartitioner.partition(await toBytes(wb), makeOptions('book.xlsx'));
    expect(els.map((e) => [e.type, e.text, e.metadata.page_name, e.metadata.page_number])).toEqual([
      ['Title', 'Regional Sales', 'Sales', 1],
      ['Table', 'Region Units Revenue North 12 1500.5 South 7 700', 'Sales', 1],
      ['NarrativeText', 'Figures are audited and final for the year.', 'Sales', 1],
      ['Title', 'Inventory Summary', 'Notes', 2],
      ['Table', 'x TRUE', 'Notes', 2],
      ['Table', 'Key Value bold part 2023-06-30', 'Notes', 2],
    ]);
    expect(els[1]!.metadata.text_as_html).toBe(
      '<table><tr><td>Region</td><td>Units</td><td>Revenue</td></tr><tr><td>North</td><td>12</td><td>1500.5</td></tr><tr><td>South</td><td>7</td><td>700</td></tr></table>',
    );
  });

  it('renders a merged cell inside a table as a colspan', async () => {
    const wb = new ExcelJS.Workbook();
    const s = wb.addWorksheet('M');
    s.getRow(1).values = ['Name', 'Scores'];
    s.mergeCells('B1:C1');
    s.getRow(2).values = ['Ann', 1, 2];
    s.getRow(3).values = ['Bob', 3, 4];
    const [table] = await xlsxPartitioner.partition(await toBytes(wb), makeOptions('m.xlsx'));
    expect(table!.text).toBe('Name Scores Ann 1 2 Bob 3 4');
    expect(table!.metadata.text_as_html).toBe(
      '<table><tr><td>Name</td><td colspan="2">Scores</td></tr><tr><td>Ann</td><td>1</td><td>2</td></tr><tr><td>Bob</td><td>3</td><td>4</td></tr></table>',
    );
  });

  it('gives no elements for an empty sheet', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Empty');
    expect(await xlsxPartitioner.partition(await toBytes(wb), makeOptions('e.xlsx'))).toEqual([]);
  });

  it('fails with FILE_UNREADABLE naming the file for a non-XLSX', async () => {
    const err = await partitionError(xlsxPartitioner, new TextEncoder().encode('a,b\n1,2'), makeOptions('table.xlsx'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('table.xlsx');
  });
});

describe.skipIf(!hasCorpus)('xlsxPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it("words exceljs's internal failures on a damaged workbook, keeping its message in details", async () => {
    // 20 zeroed bytes in the central directory entry of sheet2.xml (found by the fuzz test):
    // exceljs threw "Cannot set properties of undefined (setting 'sheetNo')".
    const bytes = corpusDoc('stanley-cups.xlsx').slice();
    bytes.fill(0, 5743, 5763);
    const err = await partitionError(xlsxPartitioner, bytes, makeOptions('stanley-cups.xlsx'));
    expect(err).toMatchObject({ code: 'FILE_UNREADABLE', message: expect.stringMatching(/^stanley-cups\.xlsx: not a readable XLSX file: the workbook's parts are damaged/), details: { reason: expect.stringContaining('sheetNo') } });
    expect((err as Error).message).not.toContain('undefined');
  });

  it('stanley-cups.xlsx matches the reference, text_as_html included', async () => {
    const els = await xlsxPartitioner.partition(corpusDoc('stanley-cups.xlsx'), makeOptions('stanley-cups.xlsx'));
    const { f1, types } = compareToReference('stanley-cups.xlsx', els);
    expect(f1).toBe(1);
    expect(types).toBe(1);
    expect(els[1]!.metadata.text_as_html).toBe(
      '<table><tr><td>Team</td><td>Location</td><td>Stanley Cups</td></tr><tr><td>Blues</td><td>STL</td><td>1</td></tr><tr><td>Flyers</td><td>PHI</td><td>2</td></tr><tr><td>Maple Leafs</td><td>TOR</td><td>13</td></tr></table>',
    );
    expect(els.map((e) => e.metadata.page_name)).toEqual(['Stanley Cups', 'Stanley Cups', 'Stanley Cups Since 67', 'Stanley Cups Since 67']);
  });

  it('2023-half-year-analyses-by-segment.xlsx gives titles, tables and footnotes for each of its 5 sheets', async () => {
    const els = await xlsxPartitioner.partition(corpusDoc('2023-half-year-analyses-by-segment.xlsx'), makeOptions('h.xlsx'));
    expect(new Set(els.map((e) => e.metadata.page_number))).toEqual(new Set([1, 2, 3, 4, 5]));
    const tables = els.filter((e) => e.type === 'Table');
    console.log(`[corpus] 2023-half-year-analyses-by-segment.xlsx: ${els.length} elements, ${tables.length} tables`);
    expect(tables.length).toBeGreaterThanOrEqual(5);
    expect(tables.every((t) => t.metadata.text_as_html?.startsWith('<table><tr>'))).toBe(true);
    // The first sheet's segment table holds the Zone NA row with its sales figure.
    expect(tables.some((t) => t.metadata.page_number === 1 && /Zone NA 12553 2713/.test(t.text))).toBe(true);
    // Merged title rows are single-cell rows, emitted as text before the tables.
    expect(els[0]).toMatchObject({ text: '3. Analyses by segment', metadata: { page_name: 'OS-Rev.and results 30 06 2023' } });
    expect(els.some((e) => e.type !== 'Table' && e.text === '(a) Inter-segment sales are not significant.')).toBe(true);
  });
});
