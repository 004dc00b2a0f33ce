/**
 * Table detection and structure scores of one document: each reference table against the predicted
 * tables of the same document, as the ICDAR 2013 table competition's data are scored with TEDS.
 */
import { tokens } from './metrics.js';
import { countNodes, parseTableHtml, treeEditDistance, type TableNode } from './teds.js';

/** A table of the reference (ground truth). */
export interface ReferenceTable {
  /** HTML of the table (`rowspan`/`colspan` on cells). */
  html: string;
  /** Other acceptable readings of the same table; a prediction is scored against the best one. */
  alternatives?: string[];
  /** Pages the table is on (1-based); when given, only predicted tables on these pages can find it. */
  pages?: number[];
}

/** A table the parser produced. */
export interface PredictedTable {
  /** `metadata.text_as_html`; without it the table can be found but scores TEDS 0. */
  html?: string;
  /** The element's text. */
  text: string;
  page?: number;
}

/** How one reference table was read. */
export interface TableResult {
  /** Index of the reference table in its document. */
  index: number;
  pages?: number[];
  /** A predicted table on its pages holds at least half of its words. */
  found: boolean;
  /** Best TEDS and, separately, best TEDS-S over the document's predicted tables (0 when there are none). */
  teds: number;
  teds_s: number;
  /** Index of the predicted table that gave the best TEDS, -1 when none. */
  predicted: number;
}

/** Table scores of one document. */
export interface DocumentTableScores {
  tables: TableResult[];
  expected_tables: number;
  predicted_tables: number;
  /** Reference tables found. */
  tables_found: number;
  /** Predicted tables that match no reference table (neither holds half of the other's words). */
  false_positives: number;
  /** Their indices among the predicted tables. */
  false_positive_tables: number[];
}

function counts(toks: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of toks) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

function overlap(a: Map<string, number>, b: Map<string, number>): number {
  let n = 0;
  for (const [t, k] of a) n += Math.min(k, b.get(t) ?? 0);
  return n;
}

/**
 * Whether a predicted table matches a reference table known by its text alone: on one of its pages
 * (when both pages are known), one of them holds at least half of the other's words.
 */
export function matchesTableText(predicted: PredictedTable, text: string, pages?: readonly number[]): boolean {
  if (pages?.length && predicted.page !== undefined && !pages.includes(predicted.page)) return false;
  const p = tokens(
    predicted.text || (predicted.html ? cellText(parseTableHtml(predicted.html) ?? { tag: 'table', colspan: 1, rowspan: 1, text: '', children: [] }) : ''),
  );
  const r = tokens(text);
  const common = overlap(counts(p), counts(r));
  return (r.length > 0 && common >= r.length / 2) || (p.length > 0 && common >= p.length / 2);
}

function cellText(node: TableNode): string {
  return node.tag === 'td' ? node.text : node.children.map(cellText).join(' ');
}

interface Reading {
  tree: TableNode;
  nodes: number;
  words: Map<string, number>;
  size: number;
}

function readingOf(html: string, what: string): Reading {
  const tree = parseTableHtml(html);
  if (!tree) throw new Error(`${what} has no <table> element`);
  const toks = tokens(cellText(tree));
  return { tree, nodes: countNodes(tree), words: counts(toks), size: toks.length };
}

/**
 * Scores the predicted tables of a document against its reference tables: for each reference table
 * whether it was found (a predicted table on its pages holding at least half of its words) and the
 * best TEDS and TEDS-S among the document's predicted tables; predicted tables matching no
 * reference table (neither holding half of its words nor half of theirs being its words) count as
 * false positives.
 */
export function scoreTables(predicted: readonly PredictedTable[], reference: readonly ReferenceTable[]): DocumentTableScores {
  const preds = predicted.map((p) => {
    const tree = p.html ? parseTableHtml(p.html) : undefined;
    const toks = tokens(p.text || (tree ? cellText(tree) : ''));
    return { tree, nodes: tree ? countNodes(tree) : 0, words: counts(toks), size: toks.length, page: p.page };
  });
  const matched = new Array<boolean>(preds.length).fill(false);
  const tables = reference.map((ref, index): TableResult => {
    const readings = [ref.html, ...(ref.alternatives ?? [])].map((h, k) => readingOf(h, `reference table ${index + 1}${k ? ` (alternative ${k})` : ''}`));
    let found = false;
    const candidates: Array<{ pi: number; r: Reading; bound: number }> = [];
    preds.forEach((p, pi) => {
      const onPage = !ref.pages?.length || p.page === undefined || ref.pages.includes(p.page);
      for (const r of readings) {
        const common = overlap(r.words, p.words);
        if (onPage && r.size && common >= r.size / 2) found = true;
        if (onPage && ((r.size && common >= r.size / 2) || (p.size && common >= p.size / 2))) matched[pi] = true;
        // Trees of n and m nodes are at least |n - m| edits apart: TEDS <= 1 - |n - m| / max(n, m).
        if (p.tree) candidates.push({ pi, r, bound: 1 - Math.abs(p.nodes - r.nodes) / Math.max(p.nodes, r.nodes) });
      }
    });
    // The likeliest first, so that the size bound skips most of the rest.
    candidates.sort((x, y) => y.bound - x.bound || x.pi - y.pi);
    let best = { teds: 0, teds_s: 0, predicted: -1 };
    for (const { pi, r, bound } of candidates) {
      if (best.predicted >= 0 && bound < best.teds && bound <= best.teds_s) continue;
      const tree = preds[pi]!.tree!;
      const size = Math.max(preds[pi]!.nodes, r.nodes);
      const teds = 1 - treeEditDistance(tree, r.tree) / size;
      // TEDS-S >= TEDS: the grid alone is priced only when it could still win.
      const tedsS = bound > best.teds_s ? 1 - treeEditDistance(tree, r.tree, true) / size : 0;
      if (best.predicted < 0 || teds > best.teds || (teds === best.teds && pi < best.predicted)) best = { ...best, teds, predicted: pi };
      if (tedsS > best.teds_s) best.teds_s = tedsS;
    }
    return { index, ...(ref.pages ? { pages: ref.pages } : {}), found, teds: best.teds, teds_s: best.teds_s, predicted: best.predicted };
  });
  return {
    tables,
    expected_tables: reference.length,
    predicted_tables: predicted.length,
    tables_found: tables.filter((t) => t.found).length,
    false_positives: matched.filter((m) => !m).length,
    false_positive_tables: matched.flatMap((m, i) => (m ? [] : [i])),
  };
}
