/**
 * TEDS (tree-edit-distance-based similarity), the table measure of PubTabNet (Zhong, ShafieiBavani
 * and Jimeno Yepes, ECCV 2020): both tables become `table` / `tr` / `td` trees, and
 * TEDS = 1 - treeEditDistance / max(node counts). TEDS-S ignores cell text and scores the grid alone.
 */
import { isTag, isText, type ChildNode, type Element as DomElement } from 'domhandler';
import { parseDocument } from 'htmlparser2';

/** One node of a table tree: the table, a row or a cell (`th` is read as `td`). */
export interface TableNode {
  tag: 'table' | 'tr' | 'td';
  /** Cells only: spans (1 when absent) and whitespace-collapsed text. */
  colspan: number;
  rowspan: number;
  text: string;
  children: TableNode[];
}

const SECTIONS = new Set(['thead', 'tbody', 'tfoot']);

function span(el: DomElement, name: string): number {
  const n = Number.parseInt(el.attribs[name] ?? '', 10);
  return Number.isFinite(n) && n > 1 ? n : 1;
}

function textOf(nodes: readonly ChildNode[], out: string[]): void {
  for (const n of nodes) {
    if (isText(n)) out.push(n.data);
    else if (isTag(n)) {
      // <br/> and block children separate words as a browser shows them.
      out.push(' ');
      textOf(n.children, out);
      out.push(' ');
    }
  }
}

function cellNode(el: DomElement): TableNode {
  const parts: string[] = [];
  textOf(el.children, parts);
  const text = parts.join('').split(/\s+/).filter(Boolean).join(' ');
  return { tag: 'td', colspan: span(el, 'colspan'), rowspan: span(el, 'rowspan'), text, children: [] };
}

function collectRows(nodes: readonly ChildNode[], rows: TableNode[]): void {
  for (const n of nodes) {
    if (!isTag(n)) continue;
    if (n.name === 'tr') {
      const cells = n.children.filter((c): c is DomElement => isTag(c) && (c.name === 'td' || c.name === 'th')).map(cellNode);
      rows.push({ tag: 'tr', colspan: 1, rowspan: 1, text: '', children: cells });
    } else if (SECTIONS.has(n.name)) collectRows(n.children, rows);
  }
}

function findTable(nodes: readonly ChildNode[]): DomElement | undefined {
  for (const n of nodes) {
    if (!isTag(n)) continue;
    if (n.name === 'table') return n;
    const inner = findTable(n.children);
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Reads the first `<table>` of an HTML string as a table tree: rows of `<thead>`, `<tbody>` and
 * `<tfoot>` in document order, `th` and `td` cells with their `colspan`/`rowspan`, the text of a
 * cell (nested markup included) with whitespace collapsed. `undefined` when there is no table.
 */
export function parseTableHtml(html: string): TableNode | undefined {
  const doc = parseDocument(html, { recognizeSelfClosing: true, lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true });
  const table = findTable(doc.children);
  if (!table) return undefined;
  const rows: TableNode[] = [];
  collectRows(table.children, rows);
  return { tag: 'table', colspan: 1, rowspan: 1, text: '', children: rows };
}

/** Number of nodes of a tree. */
export function countNodes(node: TableNode): number {
  let n = 1;
  for (const c of node.children) n += countNodes(c);
  return n;
}

/** Levenshtein distance of two code point arrays divided by the longer one's length (0 for two empty ones). */
function levenshteinRatio(x: Int32Array, y: Int32Array, rows: Int32Array[]): number {
  if (!x.length && !y.length) return 0;
  if (!x.length || !y.length) return 1;
  if (rows[0]!.length <= y.length) (rows[0] = new Int32Array(y.length + 1)), (rows[1] = new Int32Array(y.length + 1));
  let prev = rows[0]!;
  let cur = rows[1]!;
  for (let j = 0; j <= y.length; j++) prev[j] = j;
  for (let i = 1; i <= x.length; i++) {
    cur[0] = i;
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) {
      const sub = prev[j - 1]! + (xi === y[j - 1] ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      cur[j] = Math.min(sub, del, ins);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]! / Math.max(x.length, y.length);
}

const codePoints = (s: string): Int32Array => Int32Array.from(s, (c) => c.codePointAt(0)!);

/** Levenshtein distance divided by the longer text's length, in code points (0 for two empty texts). */
export function normalizedLevenshtein(a: string, b: string): number {
  return a === b ? 0 : levenshteinRatio(codePoints(a), codePoints(b), [new Int32Array(1), new Int32Array(1)]);
}

/** A tree in postorder, as Zhang and Shasha's algorithm walks it. */
interface Postorder {
  nodes: TableNode[];
  /** Postorder index of each node's leftmost leaf. */
  leftmost: Int32Array;
  /** Nodes with no left sibling's leftmost leaf in common: the root and every node that is not a first child. */
  keyroots: number[];
}

function postorder(root: TableNode): Postorder {
  const nodes: TableNode[] = [];
  const left: number[] = [];
  const walk = (n: TableNode): number => {
    let first = -1;
    for (const c of n.children) {
      const l = walk(c);
      if (first < 0) first = l;
    }
    nodes.push(n);
    const self = nodes.length - 1;
    left.push(first < 0 ? self : first);
    return left[self]!;
  };
  walk(root);
  const leftmost = Int32Array.from(left);
  // A keyroot is the highest node of each leftmost-leaf class.
  const seen = new Set<number>();
  const keyroots: number[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!seen.has(leftmost[i]!)) {
      seen.add(leftmost[i]!);
      keyroots.push(i);
    }
  }
  keyroots.sort((p, q) => p - q);
  return { nodes, leftmost, keyroots };
}

/**
 * The tree edit distance between two table trees (Zhang and Shasha, 1989): inserting or deleting a
 * node costs 1; replacing one costs 1 when the tags differ or two cells' spans differ, 0 for two rows
 * or two tables, and for two cells with equal spans the normalized Levenshtein distance of their
 * texts (0 with `structureOnly`). Time grows with the product of the node counts times the trees'
 * depths, which are 3 for tables.
 */
export function treeEditDistance(a: TableNode, b: TableNode, structureOnly = false): number {
  const A = postorder(a);
  const B = postorder(b);
  const n = A.nodes.length;
  const m = B.nodes.length;
  // Cell texts are compared once per distinct pair, lazily (NaN = not yet); the cache has a slot per
  // distinct text of one tree times distinct text of the other, no more than the distance matrix.
  const ids = (t: Postorder): { id: Int32Array; texts: string[] } => {
    const seen = new Map<string, number>();
    const id = Int32Array.from(t.nodes, (x) => {
      let k = seen.get(x.text);
      if (k === undefined) seen.set(x.text, (k = seen.size));
      return k;
    });
    return { id, texts: [...seen.keys()] };
  };
  const aIds = ids(A);
  const bIds = ids(B);
  const aChars = aIds.texts.map(codePoints);
  const bChars = bIds.texts.map(codePoints);
  const textCost = new Float64Array(aChars.length * bChars.length).fill(Number.NaN);
  const buffers = [new Int32Array(64), new Int32Array(64)];
  const rename = (i: number, j: number): number => {
    const x = A.nodes[i]!;
    const y = B.nodes[j]!;
    if (x.tag !== y.tag) return 1;
    if (x.tag !== 'td') return 0;
    if (x.colspan !== y.colspan || x.rowspan !== y.rowspan) return 1;
    if (structureOnly) return 0;
    const p = aIds.id[i]!;
    const q = bIds.id[j]!;
    const k = p * bChars.length + q;
    let c = textCost[k]!;
    if (Number.isNaN(c)) textCost[k] = c = aIds.texts[p] === bIds.texts[q] ? 0 : levenshteinRatio(aChars[p]!, bChars[q]!, buffers);
    return c;
  };
  const treedist = new Float64Array(n * m);
  const fd = new Float64Array((n + 1) * (m + 1));
  const w = m + 1;
  for (const i of A.keyroots) {
    for (const j of B.keyroots) {
      const li = A.leftmost[i]!;
      const lj = B.leftmost[j]!;
      fd[0] = 0;
      for (let x = li; x <= i; x++) fd[(x - li + 1) * w] = fd[(x - li) * w]! + 1;
      for (let y = lj; y <= j; y++) fd[y - lj + 1] = fd[y - lj]! + 1;
      for (let x = li; x <= i; x++) {
        const lx = A.leftmost[x]!;
        const row = (x - li + 1) * w;
        const up = (x - li) * w;
        for (let y = lj; y <= j; y++) {
          const ly = B.leftmost[y]!;
          const col = y - lj + 1;
          const del = fd[up + col]! + 1;
          const ins = fd[row + col - 1]! + 1;
          let best = Math.min(del, ins);
          if (lx === li && ly === lj) {
            // The substitution is priced only when it could win.
            const diag = fd[up + col - 1]!;
            if (diag < best) {
              const sub = diag + rename(x, y);
              if (sub < best) best = sub;
            }
            fd[row + col] = best;
            treedist[x * m + y] = best;
          } else {
            const sub = fd[(lx - li) * w + (ly - lj)]! + treedist[x * m + y]!;
            fd[row + col] = Math.min(sub, best);
          }
        }
      }
    }
  }
  return treedist[(n - 1) * m + (m - 1)]!;
}

/** TEDS and its structure-only variant for one pair of tables. */
export interface TedsScore {
  /** Structure and cell text: 1 for identical tables, 0 for nothing in common. */
  teds: number;
  /** Structure only (TEDS-S): cells with equal spans match whatever their text. */
  teds_s: number;
}

/** TEDS and TEDS-S of a predicted table tree against a true one. */
export function tedsOfTrees(predicted: TableNode, truth: TableNode): TedsScore {
  const size = Math.max(countNodes(predicted), countNodes(truth));
  return {
    teds: 1 - treeEditDistance(predicted, truth) / size,
    teds_s: 1 - treeEditDistance(predicted, truth, true) / size,
  };
}

/**
 * TEDS and TEDS-S of a predicted table's HTML against the true table's HTML, as PubTabNet scores
 * table recognition. A prediction without a `<table>` scores 0.
 */
export function teds(predictedHtml: string, trueHtml: string): TedsScore {
  const truth = parseTableHtml(trueHtml);
  if (!truth) throw new Error('the true table has no <table> element');
  const predicted = parseTableHtml(predictedHtml);
  if (!predicted) return { teds: 0, teds_s: 0 };
  return tedsOfTrees(predicted, truth);
}
