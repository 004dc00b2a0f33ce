import { describe, expect, it } from 'vitest';
import type { Box, TextFragment } from '../../../../src/partition/formats/pdf/layout-types.js';
import { findRuledGrids, mergeRulings, rulingsOfPath } from '../../../../src/partition/formats/pdf/rulings.js';
import { findTables } from '../../../../src/partition/formats/pdf/tables.js';
import { buildLines } from '../../../../src/partition/formats/pdf/text-lines.js';

const h = (y: number, x0: number, x1: number): Box => ({ x0, x1, y0: y, y1: y });
const v = (x: number, y0: number, y1: number): Box => ({ x0: x, x1: x, y0, y1 });

function frag(text: string, x: number, y: number, size = 10): TextFragment {
  return { text, x0: x, x1: x + text.length * size * 0.5, top: y - 0.8 * size, bottom: y + 0.2 * size, baseline: y, size, font: 'f', dir: 0 };
}

/**
 * A ruled table, 3 columns (x 100-200-300-400) and 3 rows (y 100-120-140-160). The first row's
 * line between columns 2 and 3 is missing: "Sales" spans them.
 */
const grid: Box[] = [
  h(100, 100, 400),
  h(120, 100, 400),
  h(140, 100, 400),
  h(160, 100, 400),
  v(100, 100, 160),
  v(200, 100, 160),
  v(300, 120, 160),
  v(400, 100, 160),
];

describe('rulingsOfPath', () => {
  it('reads stroked segments, thin filled rectangles as lines and other rectangles as their edges', () => {
    const stroked = rulingsOfPath(
      [
        [
          [10, 50],
          [200, 50.2],
          [200, 300],
        ],
      ],
      'stroke',
      600,
      800,
    );
    expect(stroked).toEqual([h(50.1, 10, 200), v(200, 50.2, 300)]);
    const thin = rulingsOfPath(
      [
        [
          [10, 99],
          [300, 99],
          [300, 100],
          [10, 100],
          [10, 99],
        ],
      ],
      'fill',
      600,
      800,
    );
    expect(thin).toEqual([h(99.5, 10, 300)]);
    const cell = rulingsOfPath(
      [
        [
          [10, 10],
          [110, 10],
          [110, 60],
          [10, 60],
        ],
      ],
      'fill',
      600,
      800,
    );
    expect(cell).toEqual([h(10, 10, 110), h(60, 10, 110), v(10, 10, 60), v(110, 10, 60)]);
    // A page-sized background and a curved path rule nothing.
    expect(
      rulingsOfPath(
        [
          [
            [0, 0],
            [600, 0],
            [600, 800],
            [0, 800],
          ],
          undefined,
        ],
        'fill',
        600,
        800,
      ),
    ).toEqual([]);
  });
});

describe('mergeRulings and findRuledGrids', () => {
  it('joins collinear pieces and drops tick marks', () => {
    const { horizontal, vertical } = mergeRulings([h(100, 100, 200), h(100.8, 201, 300), h(50, 10, 13), v(80, 10, 200)]);
    expect(horizontal).toEqual([{ pos: 100.4, from: 100, to: 300 }]);
    expect(vertical).toEqual([{ pos: 80, from: 10, to: 200 }]);
  });

  it('builds the grid with a spanning cell where a ruling is missing', () => {
    const { horizontal, vertical } = mergeRulings(grid);
    const grids = findRuledGrids(horizontal, vertical);
    expect(grids).toHaveLength(1);
    expect(grids[0]!.xs).toEqual([100, 200, 300, 400]);
    expect(grids[0]!.ys).toEqual([100, 120, 140, 160]);
    expect(grids[0]!.cells).toEqual([
      { row: 0, col: 0, rowspan: 1, colspan: 1 },
      { row: 0, col: 1, rowspan: 1, colspan: 2 },
      ...[1, 2].flatMap((row) => [0, 1, 2].map((col) => ({ row, col, rowspan: 1, colspan: 1 }))),
    ]);
  });

  it('takes the ends of the rules as the side walls of a table ruled across with open sides', () => {
    // Full-width rules at 100-160; column lines between the cells only (x 200, 300).
    const open = [h(100, 50, 450), h(120, 50, 450), h(140, 50, 450), h(160, 50, 450), v(200, 100, 160), v(300, 100, 160)];
    const { horizontal, vertical } = mergeRulings(open);
    const [only, ...more] = findRuledGrids(horizontal, vertical);
    expect(more).toEqual([]);
    expect(only!.xs).toEqual([50, 200, 300, 450]);
    expect(only!.cells).toHaveLength(9);
    // One rule running further than the others (a line touching the table) sets no wall.
    const longer = mergeRulings([h(100, 150, 350), h(120, 150, 350), h(140, 20, 350), v(200, 100, 140), v(300, 100, 140)]);
    expect(findRuledGrids(longer.horizontal, longer.vertical)[0]!.xs).toEqual([150, 200, 300, 350]);
  });

  it('ignores rulings that do not cross (a lone box is a 1x1 grid, separate lines none)', () => {
    const { horizontal, vertical } = mergeRulings([h(10, 0, 100), h(50, 0, 100), v(300, 0, 100), v(400, 0, 100)]);
    expect(findRuledGrids(horizontal, vertical)).toEqual([]);
  });
});

describe('findTables with rulings', () => {
  it('fills a ruled grid with the text and keeps the spanning header cell', () => {
    const frags = [
      frag('Region', 110, 114),
      frag('Sales', 230, 114),
      frag('North', 110, 134),
      frag('12', 210, 134),
      frag('14', 310, 134),
      frag('South', 110, 154),
      frag('9', 210, 154),
      frag('11', 310, 154),
      frag('A paragraph below the table, long enough to be prose.', 100, 200),
    ];
    const { tables, rest } = findTables(buildLines(frags), grid);
    expect(tables).toHaveLength(1);
    expect(tables[0]!.table!.rows).toEqual([
      [
        { text: 'Region', colspan: 1, rowspan: 1 },
        { text: 'Sales', colspan: 2, rowspan: 1 },
      ],
      ['North', '12', '14'].map((text) => ({ text, colspan: 1, rowspan: 1 })),
      ['South', '9', '11'].map((text) => ({ text, colspan: 1, rowspan: 1 })),
    ]);
    expect(rest.map((l) => l.text)).toEqual(['A paragraph below the table, long enough to be prose.']);
  });

  it('cuts a band ruled only around the body into its text rows', () => {
    // Rules: top, under the header, bottom; columns ruled through.
    const sparse: Box[] = [h(100, 100, 400), h(120, 100, 400), h(180, 100, 400), v(100, 100, 180), v(200, 100, 180), v(300, 100, 180), v(400, 100, 180)];
    const frags = [
      frag('Name', 110, 114),
      frag('Q1', 210, 114),
      frag('Q2', 310, 114),
      ...['Apples', 'Pears', 'Plums'].flatMap((name, i) => [
        frag(name, 110, 134 + i * 14),
        frag(String(i + 1), 210, 134 + i * 14),
        frag(String(i + 5), 310, 134 + i * 14),
      ]),
    ];
    const { tables } = findTables(buildLines(frags), sparse);
    expect(tables[0]!.table!.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['Name', 'Q1', 'Q2'],
      ['Apples', '1', '5'],
      ['Pears', '2', '6'],
      ['Plums', '3', '7'],
    ]);
  });

  it("takes no chart for a table: labels aligned between its gridlines and beside its plot's slanted lines stay text", () => {
    // A line chart: three gridlines of one width, value and year labels, and a plotted line.
    const gridlines: Box[] = [h(90, 60, 420), h(140, 60, 420), h(190, 60, 420)];
    const frags = [
      ...['300', '200', '100'].flatMap((t, i) => [frag(t, 40, 93 + i * 50), frag(t, 425, 93 + i * 50)]),
      ...['1990', '2000', '2010', '2020'].map((t, i) => frag(t, 80 + i * 100, 205)),
      frag('Cars sold', 200, 220),
    ];
    const plotted: Box[] = Array.from({ length: 10 }, (_, i) => ({ x0: 70 + i * 34, x1: 104 + i * 34, y0: 180 - i * 9 - 9, y1: 180 - i * 9 }));
    // Without the plotted line, the aligned labels between the gridlines read as a table.
    expect(findTables(buildLines(frags), gridlines).tables).toHaveLength(1);
    const { tables, rest } = findTables(buildLines(frags), [...gridlines, ...plotted]);
    expect(tables).toEqual([]);
    expect(rest).toHaveLength(buildLines(frags).length);
  });

  it('reads a table ruled with horizontal lines only, its header spanning columns and a wrapped label', () => {
    const rules: Box[] = [h(90, 60, 420), h(128, 60, 420), h(200, 60, 420)];
    const frags = [
      frag('Production volume', 225, 105),
      frag('Country', 70, 122),
      frag('2009', 220, 122),
      frag('2010', 300, 122),
      frag('United States', 70, 140),
      frag('60,400', 220, 140),
      frag('61,000', 300, 140),
      frag('and Canada', 70, 152),
      frag('Brazil', 70, 166),
      frag('50,000', 220, 166),
      frag('51,500', 300, 166),
      frag('China', 70, 180),
      frag('700,000', 220, 180),
      frag('710,000', 300, 180),
    ];
    const { tables } = findTables(buildLines(frags), rules);
    expect(tables).toHaveLength(1);
    const rows = tables[0]!.table!.rows;
    expect(rows.map((r) => r.map((c) => [c.text, c.colspan]))).toEqual([
      [
        ['', 1],
        ['Production volume', 2],
      ],
      [
        ['Country', 1],
        ['2009', 1],
        ['2010', 1],
      ],
      [
        ['United States and Canada', 1],
        ['60,400', 1],
        ['61,000', 1],
      ],
      [
        ['Brazil', 1],
        ['50,000', 1],
        ['51,500', 1],
      ],
      [
        ['China', 1],
        ['700,000', 1],
        ['710,000', 1],
      ],
    ]);
  });

  it("takes no plot's axis labels for a table: values standing left and right of its empty frame", () => {
    const frame: Box[] = [h(100, 100, 400), h(180, 100, 400), v(100, 100, 180), v(400, 100, 180)];
    const frags = [
      ...['0.90', '0.85', '0.80', '0.75'].flatMap((t, i) => [frag(t, 75, 108 + i * 20), frag(String(7400 - i * 100), 404, 108 + i * 20)]),
      frag('Mean income', 250, 130, 7),
      frag('Gini index', 250, 138, 7),
    ];
    const { tables, rest } = findTables(buildLines(frags), frame);
    expect(tables).toEqual([]);
    expect(rest).toHaveLength(buildLines(frags).length);
    // The same labels without the frame are aligned columns: a table.
    expect(findTables(buildLines(frags), []).tables).toHaveLength(1);
  });

  it('joins a wrapped label whose lines sit in boxes of their own into one cell', () => {
    // Two columns (x 100-200-300), rows y 100-120-160-180; the label column's second row is boxed
    // line by line (a rule at y 140 in that column only), its value spans both lines.
    const rules: Box[] = [
      h(100, 100, 300),
      h(120, 100, 300),
      h(140, 100, 200),
      h(160, 100, 300),
      h(180, 100, 300),
      v(100, 100, 180),
      v(200, 100, 180),
      v(300, 100, 180),
    ];
    const frags = [
      frag('Name', 110, 114),
      frag('Value', 210, 114),
      frag('Applications and', 110, 134),
      frag('mashups', 110, 154),
      frag('237', 210, 134),
      frag('Total', 110, 174),
      frag('9', 210, 174),
    ];
    const { tables } = findTables(buildLines(frags), rules);
    expect(tables[0]!.table!.rows).toEqual(
      [
        ['Name', 'Value'],
        ['Applications and mashups', '237'],
        ['Total', '9'],
      ].map((r) => r.map((text) => ({ text, colspan: 1, rowspan: 1 }))),
    );
    // A second line that starts a new label (upper case) keeps its own row.
    const own = frags.map((f) => (f.text === 'mashups' ? frag('Mashups', 110, 154) : f));
    expect(findTables(buildLines(own), rules).tables[0]!.table!.rows.map((r) => r.map((c) => c.text))).toEqual([
      ['Name', 'Value'],
      ['Applications and', '237'],
      ['Mashups'],
      ['Total', '9'],
    ]);
  });
});
