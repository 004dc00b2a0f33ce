/**
 * PDF headings against Docling's test references. Run: `QUARRY_HEADINGS_DATA=/path corepack pnpm
 * bench headings`, where the folder holds `<name>.pdf` beside `<name>.json`, a DoclingDocument
 * (Docling's `tests/data/pdf/groundtruth/*.json` or `tests/data/groundtruth/docling_v2/*.json`,
 * the PDFs from `tests/data/pdf/`). Without the variable it prints one `skipped` line.
 *
 * Prints JSON lines: `headings-doc`, one per document and strategy (`fast`, `hi_res`), and
 * `headings-summary`, one per strategy, with:
 * - heading precision / recall / F1: our Titles against the reference's `title` and
 *   `section_header` items, one to one by normalized text (lower case, letters and digits only,
 *   spaces left out);
 *   means over documents (a document without reference headings and without Titles counts 1, one
 *   without either side's headings is left out of that side's mean), and micro figures over all;
 * - `depth_agreement`: of the matched headings, the share whose `category_depth` orders like the
 *   reference's `level` (same relative rank among the document's levels);
 * - text F1 and order, as `quarry eval` scores them, body text only on both sides (the reference's
 *   furniture layer and our Header, Footer and PageNumber left out).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Element } from '@quarry/core';
import { scoreDocument, tokens, type EvalElement } from '../../cli/src/eval/metrics.js';
import { pdfPartitioner } from '../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../src/partition/formats/pdf/page-worker-host.js';
import { formatOptions } from '../test/partition/format-options.js';

const print = (line: Record<string, unknown>): void => console.log(JSON.stringify(line));
const round = (v: number): number => Math.round(v * 1000) / 1000;

interface DoclingRef {
  $ref: string;
}
interface DoclingItem {
  self_ref: string;
  label: string;
  text?: string;
  level?: number;
  children?: DoclingRef[];
  content_layer?: string;
  data?: { table_cells?: { text: string }[] };
}
interface DoclingDocument {
  body: DoclingItem;
  texts: DoclingItem[];
  groups: DoclingItem[];
  tables: DoclingItem[];
  pictures: DoclingItem[];
}

/** A reference element: an eval element and, for headings, the reference level. */
interface RefElement extends EvalElement {
  level?: number;
}

/** The reference's body items in document order, as eval elements (headings as `Title`). */
function referenceElements(doc: DoclingDocument): RefElement[] {
  const out: RefElement[] = [];
  const resolve = (ref: string): DoclingItem | undefined => {
    const [, kind, idx] = ref.split('/');
    const list = (doc as unknown as Record<string, DoclingItem[] | undefined>)[kind ?? ''];
    return list?.[Number(idx)];
  };
  const visit = (item: DoclingItem): void => {
    if (item.content_layer && item.content_layer !== 'body') return;
    if (item.self_ref.startsWith('#/texts/')) {
      const heading = item.label === 'title' || item.label === 'section_header';
      const text = item.text ?? '';
      if (text.trim()) out.push({ type: heading ? 'Title' : 'NarrativeText', text, ...(heading ? { level: item.label === 'title' ? 0 : (item.level ?? 1) } : {}) });
    } else if (item.self_ref.startsWith('#/tables/')) {
      const cells = item.data?.table_cells ?? [];
      out.push({ type: 'Table', text: cells.map((c) => c.text).join(' ') });
    }
    for (const child of item.children ?? []) {
      const c = resolve(child.$ref);
      if (c) visit(c);
    }
  };
  visit(doc.body);
  return out;
}

// Spaces left out: extractors space Hangul and CJK differently ('보안분' / '보안 분').
const norm = (text: string): string => tokens(text).join('');
const FURNITURE = new Set(['Header', 'Footer', 'PageNumber', 'PageBreak']);

interface HeadingScore {
  matched: number;
  output: number;
  expected: number;
  precision?: number;
  recall?: number;
  depthAgreement?: number;
}

/** Titles against reference headings, one to one by normalized text. */
function scoreHeadings(output: Element[], expected: RefElement[]): HeadingScore {
  const refs = expected.filter((e) => e.type === 'Title');
  const ours = output.filter((e) => e.type === 'Title');
  const free = new Map<string, number[]>();
  refs.forEach((r, i) => {
    const k = norm(r.text);
    free.set(k, [...(free.get(k) ?? []), i]);
  });
  const pairs: Array<[RefElement, Element]> = [];
  for (const o of ours) {
    const list = free.get(norm(o.text));
    const i = list?.shift();
    if (i !== undefined) pairs.push([refs[i]!, o]);
  }
  const rank = (values: number[]): Map<number, number> => new Map([...new Set(values)].sort((a, b) => a - b).map((v, i) => [v, i]));
  const refRank = rank(refs.map((r) => r.level ?? 1));
  const ourRank = rank(pairs.map(([, o]) => o.metadata.category_depth ?? 0));
  const sameRank = pairs.filter(([r, o]) => refRank.get(r.level ?? 1) === ourRank.get(o.metadata.category_depth ?? 0)).length;
  const score: HeadingScore = { matched: pairs.length, output: ours.length, expected: refs.length };
  if (ours.length > 0) score.precision = pairs.length / ours.length;
  else if (refs.length === 0) score.precision = 1;
  if (refs.length > 0) score.recall = pairs.length / refs.length;
  else if (ours.length === 0) score.recall = 1;
  if (pairs.length > 0) score.depthAgreement = sameRank / pairs.length;
  return score;
}

const mean = (xs: (number | undefined)[]): number | undefined => {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : undefined;
};
const f1 = (p: number | undefined, r: number | undefined): number | undefined =>
  p === undefined || r === undefined ? undefined : p + r > 0 ? (2 * p * r) / (p + r) : 0;
const r3 = (v: number | undefined): number | null => (v === undefined ? null : round(v));

async function main(): Promise<void> {
  const dir = process.env.QUARRY_HEADINGS_DATA;
  if (!dir || !existsSync(dir)) {
    print({ bench: 'headings', skipped: 'set QUARRY_HEADINGS_DATA to a folder of Docling test PDFs with their DoclingDocument JSON (<name>.pdf + <name>.json)' });
    return;
  }
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.pdf') && existsSync(path.join(dir, f.replace(/\.pdf$/, '.json'))))
    .map((f) => f.replace(/\.pdf$/, ''))
    .sort();
  for (const strategy of (process.env.STRATS ?? 'fast,hi_res').split(',') as ('fast' | 'hi_res')[]) {
    const rows: { name: string; h: HeadingScore; textF1: number; order: number }[] = [];
    for (const name of names) {
      const ref = referenceElements(JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')) as DoclingDocument);
      const bytes = new Uint8Array(readFileSync(path.join(dir, `${name}.pdf`)));
      const elements = await pdfPartitioner.partition(bytes, formatOptions({ strategy, filename: `${name}.pdf` }));
      const body = elements.filter((e) => !FURNITURE.has(e.type));
      const h = scoreHeadings(body, ref);
      const s = scoreDocument(
        body.map((e) => ({ type: e.type, text: e.text })),
        ref.map((e) => ({ type: e.type, text: e.text })),
      );
      rows.push({ name, h, textF1: s.text_f1, order: s.order });
      print({
        bench: 'headings-doc',
        strategy,
        doc: name,
        precision: r3(h.precision),
        recall: r3(h.recall),
        titles: h.output,
        reference_headings: h.expected,
        matched: h.matched,
        depth_agreement: r3(h.depthAgreement),
        text_f1: round(s.text_f1),
        order: round(s.order),
        false_titles: body.filter((e) => e.type === 'Title' && !ref.some((r) => r.type === 'Title' && norm(r.text) === norm(e.text))).map((e) => e.text.slice(0, 60)),
        missed: ref.filter((r) => r.type === 'Title' && !body.some((e) => e.type === 'Title' && norm(r.text) === norm(e.text))).map((r) => r.text.slice(0, 60)),
      });
    }
    const p = mean(rows.map((r) => r.h.precision));
    const r = mean(rows.map((x) => x.h.recall));
    const matched = rows.reduce((a, x) => a + x.h.matched, 0);
    const out = rows.reduce((a, x) => a + x.h.output, 0);
    const exp = rows.reduce((a, x) => a + x.h.expected, 0);
    print({
      bench: 'headings-summary',
      strategy,
      documents: rows.length,
      precision: r3(p),
      recall: r3(r),
      f1: r3(f1(p, r)),
      micro_precision: r3(out ? matched / out : undefined),
      micro_recall: r3(exp ? matched / exp : undefined),
      depth_agreement: r3(mean(rows.map((x) => x.h.depthAgreement))),
      text_f1: r3(mean(rows.map((x) => x.textF1))),
      order: r3(mean(rows.map((x) => x.order))),
    });
  }
  await stopPageWorker();
}

await main();
