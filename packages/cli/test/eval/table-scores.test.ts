import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellsToHtml, predictedTablesOf, referenceTablesOf } from '../../src/eval/reference-tables.js';
import { matchesTableText, scoreTables } from '../../src/eval/table-scores.js';
import { ROOT } from '../run-cli.js';

const prices = '<table><tr><td>Item</td><td>Price</td></tr><tr><td>apples</td><td>3</td></tr><tr><td>pears</td><td>4</td></tr></table>';
const staff = '<table><tr><td>Name</td><td>Role</td></tr><tr><td>Ada</td><td>engineer</td></tr></table>';

describe('scoreTables', () => {
  it('finds each reference table, keeps the best TEDS over the predictions and counts false positives', () => {
    const predicted = [
      { text: 'Name Role Ada engineer', html: '<table><tr><td>Name Role</td></tr><tr><td>Ada engineer</td></tr></table>', page: 1 },
      { text: 'Item Price apples 3 pears 4', html: prices, page: 2 },
      { text: 'Quarterly outlook for the region', html: '<table><tr><td>Quarterly outlook for the region</td></tr></table>', page: 2 },
    ];
    const s = scoreTables(predicted, [
      { html: prices, pages: [2] },
      { html: staff, pages: [1] },
    ]);
    expect(s.tables[0]).toMatchObject({ found: true, teds: 1, teds_s: 1, predicted: 1 });
    expect(s.tables[1]!.found).toBe(true);
    expect(s.tables[1]!.teds).toBeLessThan(1);
    expect(s).toMatchObject({ expected_tables: 2, predicted_tables: 3, tables_found: 2, false_positives: 1 });
  });

  it('needs half of the words, on the table pages, to find a table', () => {
    const half = { text: 'Item Price apples', page: 2 };
    expect(scoreTables([half], [{ html: prices, pages: [2] }]).tables_found).toBe(1);
    expect(scoreTables([{ text: 'Item Price', page: 2 }], [{ html: prices, pages: [2] }]).tables_found).toBe(0);
    expect(scoreTables([{ ...half, page: 3 }], [{ html: prices, pages: [2] }])).toMatchObject({ tables_found: 0, false_positives: 1 });
    // a table without HTML is found but has no structure to score
    expect(scoreTables([half], [{ html: prices }]).tables[0]).toMatchObject({ found: true, teds: 0, teds_s: 0, predicted: -1 });
  });

  it("does not count a split table's smaller part as a false positive", () => {
    const parts = [
      { text: 'Item Price apples 3', page: 2 },
      { text: 'pears 4', page: 2 },
    ];
    expect(scoreTables(parts, [{ html: prices, pages: [2] }])).toMatchObject({ tables_found: 1, false_positives: 0 });
  });

  it('names the false positives, and matches a table known by its text alone', () => {
    const s = scoreTables([{ text: 'Item Price apples 3 pears 4' }, { text: 'Staff count engineers 12', page: 2 }], [{ html: prices }]);
    expect(s).toMatchObject({ false_positives: 1, false_positive_tables: [1] });
    expect(matchesTableText({ text: 'Staff count engineers 12', page: 2 }, 'Staff count engineers 12 designers 3', [2])).toBe(true);
    expect(matchesTableText({ text: 'Staff count engineers 12', page: 2 }, 'Staff count engineers 12', [3])).toBe(false);
    expect(matchesTableText({ text: '', html: staff }, 'Name Role Ada')).toBe(true);
    expect(matchesTableText({ text: 'Quarterly outlook' }, 'Name Role Ada')).toBe(false);
  });

  it('scores against the better of two readings', () => {
    const other = '<table><tr><td>Item</td><td>Price</td></tr><tr><td>apples 3</td></tr><tr><td>pears 4</td></tr></table>';
    const s = scoreTables([{ text: 'Item Price apples 3 pears 4', html: other }], [{ html: prices, alternatives: [other] }]);
    expect(s.tables[0]).toMatchObject({ teds: 1, teds_s: 1 });
  });

  it('reads cell lists and names the field that is wrong', () => {
    const refs = referenceTablesOf({
      tables: [
        {
          cells: [
            { row: 0, col: 0, col_span: 2, text: 'Both' },
            { row: 1, col: 1, text: 'b' },
          ],
        },
      ],
    });
    expect(refs[0]!.html).toBe('<table><tr><td colspan="2">Both</td></tr><tr><td></td><td>b</td></tr></table>');
    expect(() => referenceTablesOf({ tables: [{ cells: [{ row: -1, col: 0, text: '' }] }] })).toThrow('tables[0].cells[0].row must be an integer >= 0');
    expect(() => referenceTablesOf({ tables: [{ page: 1 }] })).toThrow('tables[0] has neither "html" nor "cells"');
    expect(() => referenceTablesOf([])).toThrow('no "tables" array');
  });

  it('takes the Table elements of element JSON', () => {
    const elements = [
      { type: 'Title', text: 'Prices', metadata: { page_number: 1 } },
      { type: 'Table', text: 'Item Price', metadata: { page_number: 2, text_as_html: prices } },
      { type: 'Table', text: 'x', metadata: {} },
    ];
    expect(predictedTablesOf(elements)).toEqual([{ text: 'Item Price', html: prices, page: 2 }, { text: 'x' }]);
  });
});

const devDir = join(ROOT, '..', 'shared', 'fidelity', 'icdar2013-dev');

describe.skipIf(!existsSync(devDir))('scoreTables on dev-set truth (skipped without ../shared/fidelity)', () => {
  it('scores the truth of eu-004 perfect, and notices a dropped and an invented table', () => {
    const json = JSON.parse(readFileSync(join(devDir, 'eu-004.json'), 'utf8')) as {
      tables: Array<{ page: number; html: string; cells: Array<{ text: string }> }>;
    };
    const refs = referenceTablesOf(json);
    const asElements = json.tables.map((t) => ({
      type: 'Table',
      text: t.cells.map((c) => c.text).join(' '),
      metadata: { page_number: t.page, text_as_html: t.html },
    }));
    const perfect = scoreTables(predictedTablesOf(asElements), refs);
    expect(perfect).toMatchObject({ expected_tables: 12, tables_found: 12, false_positives: 0 });
    expect(perfect.tables.every((t) => t.teds === 1 && t.teds_s === 1)).toBe(true);

    const invented = {
      type: 'Table',
      text: 'Lorem ipsum dolor sit amet',
      metadata: { page_number: 1, text_as_html: cellsToHtml([{ row: 0, col: 0, text: 'Lorem ipsum dolor sit amet' }]) },
    };
    // the table alone on page 4 is dropped
    expect(json.tables[3]!.page).toBe(4);
    const worse = scoreTables(predictedTablesOf([...asElements.filter((_, i) => i !== 3), invented]), refs);
    expect(worse).toMatchObject({ tables_found: 11, false_positives: 1 });
    expect(worse.tables[3]!.found).toBe(false);
    expect(worse.tables[3]!.teds).toBeLessThan(1);
  });
});
