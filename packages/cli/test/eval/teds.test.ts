import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellsToHtml, referenceTablesOf, type ReferenceCell } from '../../src/eval/reference-tables.js';
import { countNodes, normalizedLevenshtein, parseTableHtml, teds, treeEditDistance, type TableNode } from '../../src/eval/teds.js';
import { ROOT } from '../run-cli.js';

const grid = (rows: string[][]) => `<table>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;

describe('TEDS on hand-computed tables', () => {
  const truth = grid([
    ['a', 'b'],
    ['c', 'd'],
  ]); // table + 2 rows + 4 cells = 7 nodes

  it('gives 1 for identical tables', () => {
    expect(teds(truth, truth)).toEqual({ teds: 1, teds_s: 1 });
  });

  it('charges a dropped row its row and cells: 1 - 3/7', () => {
    expect(teds(grid([['a', 'b']]), truth)).toEqual({ teds: 1 - 3 / 7, teds_s: 1 - 3 / 7 });
    // and symmetrically, divided by the larger tree
    expect(teds(truth, grid([['a', 'b']]))).toEqual({ teds: 1 - 3 / 7, teds_s: 1 - 3 / 7 });
  });

  it('charges a changed span one substitution: 1 - 1/6', () => {
    const spanned = '<table><tr><td colspan="2">h</td></tr><tr><td>a</td><td>b</td></tr></table>';
    const unspanned = '<table><tr><td>h</td></tr><tr><td>a</td><td>b</td></tr></table>';
    expect(teds(unspanned, spanned)).toEqual({ teds: 1 - 1 / 6, teds_s: 1 - 1 / 6 });
    const rowspan = '<table><tr><td rowspan="2">h</td></tr><tr><td>a</td><td>b</td></tr></table>';
    expect(teds(rowspan, spanned)).toEqual({ teds: 1 - 1 / 6, teds_s: 1 - 1 / 6 });
  });

  it('charges a text edit its normalized Levenshtein distance, and TEDS-S ignores it', () => {
    const edited = grid([
      ['a', 'b'],
      ['c', 'dxyz'],
    ]);
    expect(normalizedLevenshtein('dxyz', 'd')).toBe(3 / 4);
    expect(teds(edited, truth)).toEqual({ teds: 1 - 0.75 / 7, teds_s: 1 });
    // an emptied cell costs 1, a swapped pair of cells 2
    expect(
      teds(
        grid([
          ['a', 'b'],
          ['c', ''],
        ]),
        truth,
      ).teds,
    ).toBeCloseTo(1 - 1 / 7, 12);
    expect(
      teds(
        grid([
          ['b', 'a'],
          ['c', 'd'],
        ]),
        truth,
      ).teds,
    ).toBeCloseTo(1 - 2 / 7, 12);
  });

  it('counts Levenshtein in code points', () => {
    expect(normalizedLevenshtein('a😀', 'a😁')).toBe(1 / 2);
    expect(normalizedLevenshtein('', '')).toBe(0);
    expect(normalizedLevenshtein('', 'x')).toBe(1);
  });

  it('scores a missing table 0 and refuses a truth without a table', () => {
    expect(teds('<p>no table</p>', truth)).toEqual({ teds: 0, teds_s: 0 });
    expect(() => teds(truth, '<p>x</p>')).toThrow(/no <table>/);
  });
});

describe('parseTableHtml', () => {
  it('reads thead/tbody/tfoot rows in order and th as td', () => {
    const sectioned = '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>b</td></tr></tbody><tfoot><tr><td>c</td></tr></tfoot></table>';
    expect(teds(sectioned, grid([['a'], ['b'], ['c']]))).toEqual({ teds: 1, teds_s: 1 });
  });

  it('collapses whitespace and nested markup in a cell, reads spans, self-closing cells', () => {
    const t = parseTableHtml('<div><TABLE>\n <tr>\n  <td COLSPAN="3"> Total\n  <b>costs</b><br/>2024 </td><td/><td rowspan="x">&amp;</td></tr></TABLE></div>')!;
    expect(t.children).toHaveLength(1);
    const [a, b, c] = t.children[0]!.children;
    expect(a).toMatchObject({ tag: 'td', colspan: 3, rowspan: 1, text: 'Total costs 2024' });
    expect(b).toMatchObject({ tag: 'td', text: '' });
    expect(c).toMatchObject({ colspan: 1, rowspan: 1, text: '&' });
    expect(countNodes(t)).toBe(5);
  });

  it('keeps a nested table inside its cell', () => {
    const t = parseTableHtml('<table><tr><td><table><tr><td>x</td><td>y</td></tr></table></td></tr></table>')!;
    expect(t.children).toHaveLength(1);
    expect(t.children[0]!.children[0]!.text).toBe('x y');
  });
});

/** The tree edit distance by its recursive definition over forests, memoized: slow but plain. */
function naiveDistance(a: TableNode, b: TableNode, structureOnly: boolean): number {
  const key = (f: TableNode[]) => JSON.stringify(f);
  const memo = new Map<string, number>();
  const rename = (x: TableNode, y: TableNode) => {
    if (x.tag !== y.tag) return 1;
    if (x.tag !== 'td') return 0;
    if (x.colspan !== y.colspan || x.rowspan !== y.rowspan) return 1;
    return structureOnly ? 0 : normalizedLevenshtein(x.text, y.text);
  };
  const size = (f: TableNode[]): number => f.reduce((s, n) => s + countNodes(n), 0);
  const d = (f: TableNode[], g: TableNode[]): number => {
    if (!f.length) return size(g);
    if (!g.length) return size(f);
    const k = `${key(f)}|${key(g)}`;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    const v = f[f.length - 1]!;
    const w = g[g.length - 1]!;
    const fRest = f.slice(0, -1);
    const gRest = g.slice(0, -1);
    const r = Math.min(d([...fRest, ...v.children], g) + 1, d(f, [...gRest, ...w.children]) + 1, d(v.children, w.children) + d(fRest, gRest) + rename(v, w));
    memo.set(k, r);
    return r;
  };
  return d([a], [b]);
}

function randomTree(rand: () => number, budget: number): TableNode {
  const tags = ['table', 'tr', 'td'] as const;
  const texts = ['', 'a', 'ab', 'ba', 'abc'];
  const node: TableNode = {
    tag: tags[Math.floor(rand() * 3)]!,
    colspan: 1 + Math.floor(rand() * 2),
    rowspan: 1,
    text: texts[Math.floor(rand() * texts.length)]!,
    children: [],
  };
  let left = budget - 1;
  while (left > 0 && rand() < 0.6) {
    const size = 1 + Math.floor(rand() * left);
    node.children.push(randomTree(rand, size));
    left -= size;
  }
  return node;
}

describe('treeEditDistance', () => {
  it('agrees with the recursive definition on random trees of any shape', () => {
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 150; i++) {
      const a = randomTree(rand, 1 + Math.floor(rand() * 7));
      const b = randomTree(rand, 1 + Math.floor(rand() * 7));
      for (const structureOnly of [false, true]) expect(treeEditDistance(a, b, structureOnly)).toBeCloseTo(naiveDistance(a, b, structureOnly), 10);
    }
  });
});

const devDir = join(ROOT, '..', 'shared', 'fidelity', 'icdar2013-dev');

interface DevTable {
  html: string;
  cells: ReferenceCell[];
}

describe.skipIf(!existsSync(devDir))('TEDS on the ICDAR 2013 dev set truth (skipped without ../shared/fidelity)', () => {
  const tables: Array<{ doc: string; table: DevTable }> = [];
  if (existsSync(devDir)) {
    for (const f of readdirSync(devDir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const json = JSON.parse(readFileSync(join(devDir, f), 'utf8')) as { tables: DevTable[] };
      for (const table of json.tables) tables.push({ doc: f, table });
    }
  }

  it('scores every true table 1 against itself and against its cell list', () => {
    expect(tables.length).toBe(97);
    for (const { table } of tables) {
      expect(teds(table.html, table.html)).toEqual({ teds: 1, teds_s: 1 });
      expect(teds(cellsToHtml(table.cells), table.html)).toEqual({ teds: 1, teds_s: 1 });
    }
  });

  it('scores a transposed table below 1, and texts shifted by one cell below 1 in TEDS only', () => {
    for (const { doc, table } of tables) {
      const transposed = cellsToHtml(table.cells.map((c) => ({ row: c.col, col: c.row, row_span: c.col_span, col_span: c.row_span, text: c.text })));
      const cells = table.cells;
      const shifted = cellsToHtml(cells.map((c, i) => ({ ...c, text: cells[(i + 1) % cells.length]!.text })));
      const t = teds(transposed, table.html);
      const s = teds(shifted, table.html);
      expect(t.teds, doc).toBeLessThan(1);
      expect(t.teds, doc).toBeGreaterThanOrEqual(0);
      expect(s.teds, doc).toBeLessThan(1);
      expect(s.teds_s, doc).toBe(1);
    }
  });

  it('reads the dev-set JSON as reference tables, alternative readings included', () => {
    const json = JSON.parse(readFileSync(join(devDir, 'us-011a.json'), 'utf8')) as unknown;
    const refs = referenceTablesOf(json);
    expect(refs.map((r) => r.pages)).toEqual([[2], [3]]);
    expect(refs.every((r) => r.alternatives?.length === 1)).toBe(true);
  });
});
