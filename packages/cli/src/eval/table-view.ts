/**
 * A reference table beside ours for the HTML report of `quarry eval`: rows paired in order (most
 * equal cells first), and a cell marked where the paired row has no cell in the same column with
 * the same spans and text.
 */
import escapeHtml from 'escape-html';
import { parseTableHtml, type TableNode } from './teds.js';

interface PlacedCell {
  cell: TableNode;
  row: number;
  col: number;
}

/** Places each cell at its grid position, skipping positions taken by row spans from above. */
export function placeCells(table: TableNode): PlacedCell[][] {
  const taken = new Set<string>();
  return table.children.map((tr, row) => {
    let col = 0;
    return tr.children.map((cell) => {
      while (taken.has(`${row},${col}`)) col++;
      const placed = { cell, row, col };
      for (let r = row; r < row + cell.rowspan; r++) for (let c = col; c < col + cell.colspan; c++) taken.add(`${r},${c}`);
      col += cell.colspan;
      return placed;
    });
  });
}

const cellKey = (p: PlacedCell): string => `${p.col},${p.cell.rowspan},${p.cell.colspan},${p.cell.text.toLowerCase()}`;

/**
 * Pairs the rows of two tables in order, most equal cells first (a dropped or extra row then
 * shifts nothing below it); returns for each row of `a` the row of `b` it is paired with, or -1.
 */
function alignRows(a: PlacedCell[][], b: PlacedCell[][]): number[] {
  const keys = b.map((row) => new Set(row.map(cellKey)));
  const same = a.map((row) => keys.map((k) => row.filter((p) => k.has(cellKey(p))).length));
  // best[i][j]: most equal cells pairing rows a[i..] with rows b[j..]
  const best = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) best[i]![j] = Math.max(best[i + 1]![j]!, best[i]![j + 1]!, same[i]![j]! + best[i + 1]![j + 1]!);
  }
  const pair = new Array<number>(a.length).fill(-1);
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (same[i]![j]! > 0 && best[i]![j] === same[i]![j]! + best[i + 1]![j + 1]!) pair[i++] = j++;
    else if (best[i]![j] === best[i + 1]![j]) i++;
    else j++;
  }
  return pair;
}

function render(rows: PlacedCell[][], other: PlacedCell[][], pair: number[], side: string): { html: string; differing: number } {
  let differing = 0;
  const body = rows
    .map((cells, r) => {
      const keys = new Set(pair[r]! >= 0 ? other[pair[r]!]!.map(cellKey) : []);
      const tds = cells.map((p) => {
        const differs = !keys.has(cellKey(p));
        if (differs) differing++;
        const spans = `${p.cell.colspan > 1 ? ` colspan="${p.cell.colspan}"` : ''}${p.cell.rowspan > 1 ? ` rowspan="${p.cell.rowspan}"` : ''}`;
        return `<td${spans} data-row="${p.row}" data-col="${p.col}"${differs ? ' class="differs"' : ''}>${escapeHtml(p.cell.text)}</td>`;
      });
      return `<tr>${tds.join('')}</tr>`;
    })
    .join('');
  return { html: `<table class="cells ${side}"><tbody>${body}</tbody></table>`, differing };
}

/** The two tables rendered, and how many cells of each differ from the other. */
export interface TablePair {
  reference: string;
  ours: string;
  reference_differing: number;
  ours_differing: number;
}

/**
 * Renders a reference table and ours (HTML with `rowspan`/`colspan`) as two plain tables whose
 * differing cells carry `class="differs"`: a cell differs when the row paired with its row has no
 * cell in the same column with the same spans and text. `ours` undefined renders an empty table.
 */
export function renderTablePair(referenceHtml: string, oursHtml: string | undefined): TablePair {
  const empty: TableNode = { tag: 'table', colspan: 1, rowspan: 1, text: '', children: [] };
  const ref = placeCells(parseTableHtml(referenceHtml) ?? empty);
  const ours = placeCells((oursHtml === undefined ? undefined : parseTableHtml(oursHtml)) ?? empty);
  const toOurs = alignRows(ref, ours);
  const toRef = new Array<number>(ours.length).fill(-1);
  toOurs.forEach((j, i) => {
    if (j >= 0) toRef[j] = i;
  });
  const a = render(ref, ours, toOurs, 'reference');
  const b = render(ours, ref, toRef, 'ours');
  return { reference: a.html, ours: b.html, reference_differing: a.differing, ours_differing: b.differing };
}
