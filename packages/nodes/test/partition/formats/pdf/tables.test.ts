import { describe, expect, it } from 'vitest';
import type { TextFragment } from '../../../../src/partition/formats/pdf/layout-types.js';
import { findTables } from '../../../../src/partition/formats/pdf/tables.js';
import { layoutFragments } from '../../../../src/partition/formats/pdf/text-layout.js';
import { buildLines } from '../../../../src/partition/formats/pdf/text-lines.js';

function frag(text: string, x: number, y: number, size = 10): TextFragment {
  return { text, x0: x, x1: x + text.length * size * 0.5, top: y - 0.8 * size, bottom: y + 0.2 * size, baseline: y, size, font: 'f', dir: 0 };
}

describe('findTables', () => {
  it('finds a grid of short, aligned cells and keeps the text around it', () => {
    const header = [frag('Item', 72, 100), frag('Qty', 200, 100), frag('Price', 300, 100)];
    const rows = [
      ['Apples', '3', '1.20'],
      ['Pears', '12', '0.80'],
      ['Plums', '7', '2.05'],
    ].flatMap((r, i) => [frag(r[0]!, 72, 114 + i * 14), frag(r[1]!, 205, 114 + i * 14), frag(r[2]!, 305, 114 + i * 14)]);
    const prose = frag('The table above lists the fruit bought this week, with prices.', 72, 190);
    const { tables, rest } = findTables(buildLines([...header, ...rows, prose]));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.table!.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['Item', 'Qty', 'Price'],
      ['Apples', '3', '1.20'],
      ['Pears', '12', '0.80'],
      ['Plums', '7', '2.05'],
    ]);
    expect(tables[0]!.text).toBe('Item Qty Price Apples 3 1.20 Pears 12 0.80 Plums 7 2.05');
    expect(rest.map((l) => l.text)).toEqual(['The table above lists the fruit bought this week, with prices.']);
  });

  it('does not take two columns of running text for a table', () => {
    const left = ['Lorem ipsum dolor sit amet, con-', 'sectetur adipiscing elit, sed do', 'eiusmod tempor incididunt ut', 'labore et dolore magna aliqua.'];
    const right = ['Ut enim ad minim veniam, quis', 'nostrud exercitation ullamco', 'laboris nisi ut aliquip ex ea', 'commodo consequat. Duis aute'];
    const frags = left.flatMap((t, i) => [frag(t, 72, 100 + i * 12), frag(right[i]!, 300, 100 + i * 12)]);
    expect(findTables(buildLines(frags)).tables).toEqual([]);
  });

  it('places the table in reading order among the other blocks', () => {
    const frags = [
      frag('Results', 72, 80, 14),
      ...[
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
      ].flatMap((r, i) => [frag(r[0]!, 72, 110 + i * 14), frag(r[1]!, 200, 110 + i * 14)]),
      frag('Closing remarks follow the table in a paragraph.', 72, 170),
    ];
    const blocks = layoutFragments(frags, { findTables });
    expect(blocks.map((b) => b.kind)).toEqual(['text', 'table', 'text']);
  });

  it('reads side-by-side panels apart under a running header that crosses their gutter', () => {
    // Two panels (x 40-210 and 330-500), each a caption over two aligned columns; a running header
    // centred over the gutter between them.
    const panel = (x: number, name: string, base: number) => [
      frag(`Sales of the ${name} region by month`, x, 80),
      ...[0, 1, 2, 3].flatMap((i) => [frag(`${name} ${i}`, x, 100 + i * 14), frag(String(base + i), x + 100, 100 + i * 14)]),
    ];
    const frags = [frag('Quarterly report', 230, 40), ...panel(40, 'North', 10), ...panel(330, 'South', 20)];
    const { tables } = findTables(buildLines(frags));
    expect(tables.map((t) => t.table!.rows.map((r) => r.map((c) => c.text)))).toEqual([
      [0, 1, 2, 3].map((i) => [`North ${i}`, String(10 + i)]),
      [0, 1, 2, 3].map((i) => [`South ${i}`, String(20 + i)]),
    ]);
  });

  it("keeps a label wrapped around its row's values in one row", () => {
    // The third label's two lines sit above and below its values' baseline; the fourth wraps below.
    const frags = [
      ...[frag('Measure', 72, 100), frag('1997', 250, 100), frag('1998', 320, 100)],
      ...[frag('Median income', 72, 114), frag('49,497', 250, 114), frag('51,295', 320, 114)],
      frag('Between-state inequality', 72, 124),
      frag('0.0628', 250, 131),
      frag('0.0636', 320, 131),
      frag('(Gini index)', 72, 138),
      ...[frag('Years of life lost', 72, 152), frag('7108.3', 250, 152), frag('6960.6', 320, 152)],
      frag('before age 75', 72, 164),
      ...[frag('Mean days', 72, 178), frag('20.1', 250, 178), frag('20.4', 320, 178)],
    ];
    const { tables } = findTables(buildLines(frags));
    expect(tables[0]!.table!.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['Measure', '1997', '1998'],
      ['Median income', '49,497', '51,295'],
      ['Between-state inequality (Gini index)', '0.0628', '0.0636'],
      ['Years of life lost before age 75', '7108.3', '6960.6'],
      ['Mean days', '20.1', '20.4'],
    ]);
  });
});
