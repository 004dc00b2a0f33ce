import { describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { xlsxPartitioner } from '../../../../src/partition/formats/xlsx/index.js';
import { compareToReference, corpusDoc, hasCorpus, makeOptions, partitionError } from '../helpers.js';
import { buildXlsx, esc, si, SML_NS, stylesXml } from './builder.js';

const partition = async (bytes: Uint8Array, name = 'book.xlsx') => xlsxPartitioner.partition(bytes, makeOptions(name));
const summary = (els: Awaited<ReturnType<typeof partition>>) => els.map((e) => [e.type, e.text, e.metadata.page_name, e.metadata.page_number]);
/** A cell holding an inline string. */
const str = (ref: string, text: string): string => `<c r="${ref}" t="inlineStr"><is><t>${esc(text)}</t></is></c>`;
/** A cell holding a number (with style `s` when given). */
const num = (ref: string, value: string, s?: number): string => `<c r="${ref}"${s === undefined ? '' : ` s="${s}"`}><v>${value}</v></c>`;
const row = (r: number, ...cells: string[]): string => `<row r="${r}">${cells.join('')}</row>`;

describe('xlsxPartitioner', () => {
  it('splits a sheet into title rows, a table and trailing notes; sheets give page_name and page_number', async () => {
    const bytes = await buildXlsx({
      sharedStrings: [
        si('Regional Sales'),
        si('Region'),
        si('Units'),
        si('Revenue'),
        '<si><r><t xml:space="preserve">bold </t></r><r><rPr><b/></rPr><t>part</t></r></si>',
      ],
      styles: stylesXml([0, 14]),
      sheets: [
        {
          name: 'Sales',
          rows:
            row(1, '<c r="A1" t="s"><v>0</v></c>', '<c r="B1" s="0"/>', '<c r="C1"/>') +
            row(2, '<c r="A2" t="s"><v>1</v></c>', '<c r="B2" t="s"><v>2</v></c>', '<c r="C2" t="s"><v>3</v></c>') +
            row(3, str('A3', 'North'), num('B3', '12'), num('C3', '1500.5')) +
            row(4, str('A4', 'South'), num('B4', '7'), '<c r="C4"><f>B4*100</f><v>700</v></c>') +
            row(5, str('A5', 'Figures are audited and final for the year.')),
          after: '<mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells>',
        },
        {
          name: 'Notes',
          rows:
            row(2, str('B2', 'Inventory Summary')) +
            row(3, str('B3', 'x'), '<c r="C3" t="b"><v>1</v></c>') +
            row(10, str('E10', 'Key'), str('F10', 'Value')) +
            row(11, '<c r="E11" t="s"><v>4</v></c>', num('F11', '45107', 1)),
        },
      ],
    });
    const els = await partition(bytes);
    expect(summary(els)).toEqual([
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

  it('renders a merged cell inside a table as a colspan, an empty merged range as one cell, and drops values a merge hides', async () => {
    const bytes = await buildXlsx({
      sheets: [
        {
          name: 'M',
          rows:
            row(1, str('A1', 'Name'), str('B1', 'Scores'), str('C1', 'hidden by the merge')) +
            row(2, str('A2', 'Ann'), num('B2', '1'), num('C2', '2'), '<c r="D2" s="0"/>') +
            row(3, str('A3', 'Bob'), num('B3', '3'), num('C3', '4')),
          after: '<mergeCells count="2"><mergeCell ref="B1:C1"/><mergeCell ref="D1:E3"/></mergeCells>',
        },
      ],
    });
    const [table] = await partition(bytes, 'm.xlsx');
    expect(table!.text).toBe('Name Scores Ann 1 2 Bob 3 4');
    expect(table!.metadata.text_as_html).toBe(
      '<table><tr><td>Name</td><td colspan="2">Scores</td></tr><tr><td>Ann</td><td>1</td><td>2</td></tr><tr><td>Bob</td><td>3</td><td>4</td></tr></table>',
    );
    // The empty merge D1:E3 is inside the region once a cell beside it is filled: one cell, not six.
    const wide = await buildXlsx({
      sheets: [
        {
          name: 'W',
          rows: row(1, str('A1', 'a'), str('B1', 'b'), str('F1', 'f')) + row(2, str('A2', 'c'), str('B2', 'd'), str('F2', 'g')),
          after: '<mergeCells><mergeCell ref="C1:E2"/></mergeCells>',
        },
      ],
    });
    const [t2] = await partition(wide);
    expect(t2!.metadata.text_as_html).toBe(
      '<table><tr><td>a</td><td>b</td><td colspan="3" rowspan="2"/><td>f</td></tr><tr><td>c</td><td>d</td><td>g</td></tr></table>',
    );
  });

  it('shows what Excel stored for each cell type: cached formula results (0 and FALSE too), errors, dates and times, booleans', async () => {
    // A date format applies to numbers only: a formula's text or boolean result in such a cell stays as it is.
    const bytes = await buildXlsx({
      styles: stylesXml([0, 14, 164, 165, 21, 166], { 164: '[$-409]d-mmm-yy;@', 165: '"Qty" 0', 166: '#,##0.00_);[Red](#,##0.00)' }),
      sheets: [
        {
          name: 'Types',
          rows:
            row(
              1,
              str('A1', 'sum'),
              '<c r="B1"><f>SUM(C1:D1)</f><v>0</v></c>',
              '<c r="C1" s="1" t="b"><f>1=2</f><v>0</v></c>',
              '<c r="D1" t="e"><f>1/0</f><v>#DIV/0!</v></c>',
            ) +
            row(
              2,
              str('A2', 'text formula'),
              '<c r="B2" s="1" t="str"><f>A2&amp;"!"</f><v>text formula!</v></c>',
              '<c r="C2"><f>NOW()</f></c>',
              num('D2', '0.30000000000000004'),
            ) +
            row(3, str('A3', 'dates'), num('B3', '45107', 2), num('C3', '45107.5', 1), num('D3', '0.75', 4)) +
            row(4, str('A4', 'not dates'), num('B4', '45107', 3), num('C4', '1234.5', 5), num('D4', '-2.5E-3')) +
            row(5, str('A5', 'strict date'), '<c r="B5" t="d"><v>2024-02-29T13:45:00</v></c>', '<c r="C5" t="n"><v>12</v></c>', num('D5', '7')),
        },
      ],
    });
    const [table] = await partition(bytes);
    expect(table!.text).toBe(
      [
        'sum 0 FALSE #DIV/0!',
        'text formula text formula! 0.3',
        'dates 2023-06-30 2023-06-30 12:00:00 1899-12-30 18:00:00',
        'not dates 45107 1234.5 -0.0025',
        'strict date 2024-02-29 13:45:00 12 7',
      ].join(' '),
    );
  });

  it('counts dates from 1904 when the workbook says so', async () => {
    const bytes = await buildXlsx({
      date1904: true,
      styles: stylesXml([0, 14]),
      sheets: [{ name: 'D', rows: row(1, str('A1', 'when'), num('B1', '43645', 1)) }],
    });
    expect((await partition(bytes))[0]!.text).toBe('when 2023-06-30');
  });

  it('reads inline and shared strings with escapes and without phonetic guides, prefixed elements, and rows and cells without references', async () => {
    const sheet =
      `<?xml version="1.0"?><x:worksheet xmlns:x="${SML_NS}"><x:sheetData>` +
      '<x:row><x:c t="inlineStr"><x:is><x:t>Line_x000D_one</x:t></x:is></x:c><x:c t="s"><x:v>0</x:v></x:c></x:row>' +
      '<x:row><x:c><x:v>1</x:v></x:c><x:c><x:v>2</x:v></x:c></x:row>' +
      '<x:row r="5"><x:c r="C5" t="inlineStr"><x:is><x:r><x:t>rich </x:t></x:r><x:r><x:t>inline</x:t></x:r><x:rPh sb="0" eb="1"><x:t>ruby</x:t></x:rPh></x:is></x:c></x:row>' +
      '</x:sheetData></x:worksheet>';
    const bytes = await buildXlsx({
      sharedStrings: ['<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>'],
      sheets: [{ name: 'S', part: sheet }],
    });
    const els = await partition(bytes);
    expect(summary(els)).toEqual([
      // The carriage return is whitespace in a table's text.
      ['Table', 'Line one 東京 1 2', 'S', 1],
      ['Title', 'rich inline', 'S', 1],
    ]);
  });

  it('lists worksheets in tab order, hidden ones included, chart sheets left out of the numbering', async () => {
    const one = (text: string) => row(1, str('A1', text), str('B1', 'x'));
    const bytes = await buildXlsx({
      sheets: [
        { name: 'First', rows: one('a') },
        { name: 'Chart', kind: 'chartsheet', part: '<chartsheet/>' },
        { name: 'Hidden', state: 'hidden', rows: one('b') },
        { name: 'Very hidden', state: 'veryHidden', rows: one('c') },
      ],
    });
    expect(summary(await partition(bytes))).toEqual([
      ['Table', 'a x', 'First', 1],
      ['Table', 'b x', 'Hidden', 2],
      ['Table', 'c x', 'Very hidden', 3],
    ]);
  });

  it('skips a sheet whose part is missing, with a warning, and reads the others', async () => {
    const bytes = await buildXlsx({
      sheets: [
        { name: 'Gone', missing: true },
        { name: 'Here', rows: row(1, str('A1', 'kept'), str('B1', 'too')) },
      ],
    });
    const options = makeOptions('gap.xlsx');
    const els = await xlsxPartitioner.partition(bytes, options);
    expect(summary(els)).toEqual([['Table', 'kept too', 'Here', 2]]);
    expect(options.warnings).toEqual(['gap.xlsx: sheet "Gone" is skipped: its part xl/worksheets/sheet1.xml is missing from the workbook']);
  });

  it('reads a sheet with a merge and a data validation spanning the whole sheet', async () => {
    // Such ranges cover 17 billion cells: a reader that makes each one never finishes.
    const bytes = await buildXlsx({
      sheets: [
        {
          name: 'All',
          rows: row(1, str('A1', 'Everything')),
          after:
            '<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells><dataValidations count="1"><dataValidation allowBlank="1" sqref="A1:XFD1048576"/></dataValidations>',
        },
      ],
    });
    expect(summary(await partition(bytes))).toEqual([['Title', 'Everything', 'All', 1]]);
  });

  it('gives no elements for an empty sheet', async () => {
    expect(await partition(await buildXlsx({ sheets: [{ name: 'Empty' }] }), 'e.xlsx')).toEqual([]);
  });

  it('fails with FILE_UNREADABLE naming the file for a non-XLSX, a package without a workbook, or malformed sheet XML', async () => {
    const err = await partitionError(xlsxPartitioner, new TextEncoder().encode('a,b\n1,2'), makeOptions('table.xlsx'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('table.xlsx');
    const malformed = await buildXlsx({ sheets: [{ name: 'Bad', rows: '<row r="1"><c r="A1"><v>1</v></row>' }] });
    expect(await partitionError(xlsxPartitioner, malformed, makeOptions('bad.xlsx'))).toMatchObject({
      code: 'FILE_UNREADABLE',
      message: 'bad.xlsx: not a readable XLSX file: part xl/worksheets/sheet1.xml is not well-formed XML',
      details: { filename: 'bad.xlsx', reason: expect.any(String) },
    });
  });

  it('refuses sheets whose XML passes QUARRY_MAX_XML_BYTES with FILE_TOO_LARGE', async () => {
    const rows = Array.from({ length: 200 }, (_, i) => row(i + 1, str(`A${i + 1}`, 'a cell of text'), num(`B${i + 1}`, String(i)))).join('');
    const bytes = await buildXlsx({ sheets: [{ name: 'Big', rows }] });
    const before = process.env.QUARRY_MAX_XML_BYTES;
    process.env.QUARRY_MAX_XML_BYTES = '4096';
    try {
      expect(await partitionError(xlsxPartitioner, bytes, makeOptions('big.xlsx'))).toMatchObject({
        code: 'FILE_TOO_LARGE',
        message: expect.stringContaining('big.xlsx'),
      });
    } finally {
      if (before === undefined) delete process.env.QUARRY_MAX_XML_BYTES;
      else process.env.QUARRY_MAX_XML_BYTES = before;
    }
    expect(await partition(bytes)).toHaveLength(1);
  });
});

describe.skipIf(!hasCorpus)('xlsxPartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('says which part a damaged archive lost', async () => {
    // 20 zeroed bytes in the central directory (found by the fuzz test): the ZIP reader stops
    // listing members there, before the workbook part.
    const bytes = corpusDoc('stanley-cups.xlsx').slice();
    bytes.fill(0, 5743, 5763);
    const err = await partitionError(xlsxPartitioner, bytes, makeOptions('stanley-cups.xlsx'));
    expect(err).toMatchObject({ code: 'FILE_UNREADABLE', message: 'stanley-cups.xlsx: not a readable XLSX file: required part xl/workbook.xml is missing' });
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
    // A total whose cached result is 0 (shown as a dash by its number format) reads 0, as pandas does.
    expect(tables.some((t) => t.metadata.page_number === 2 && t.text.endsWith('Total -16 -55 0 -599'))).toBe(true);
    // Merged title rows are single-cell rows, emitted as text before the tables.
    expect(els[0]).toMatchObject({ text: '3. Analyses by segment', metadata: { page_name: 'OS-Rev.and results 30 06 2023' } });
    expect(els.some((e) => e.type !== 'Table' && e.text === '(a) Inter-segment sales are not significant.')).toBe(true);
  });
});
