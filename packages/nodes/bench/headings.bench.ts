/**
 * PDF headings against Docling's test references. Run: `QUARRY_HEADINGS_DATA=/path corepack pnpm
 * bench headings`, where the folder holds `<name>.pdf` beside `<name>.json`, a DoclingDocument
 * (Docling's `tests/data/pdf/groundtruth/*.json` or `tests/data/groundtruth/docling_v2/*.json`,
 * the PDFs from `tests/data/pdf/`). Without the variable it prints one `skipped` line.
 *
 * Prints JSON lines: `headings-doc`, one per document and strategy (`fast`, `hi_res`), and
 * `headings-summary`, one per strategy, with:
 * - heading precision / recall / F1 as `quarry eval` scores them (`headingScores`): our Titles
 *   against the reference's `title` and `section_header` items, one to one by normalized text;
 *   means over documents, and micro figures over all;
 * - `depth_agreement`: of the matched headings, the share whose `category_depth` equals the
 *   reference's level less one (`quarry eval`'s `heading_levels`);
 * - text F1 and order, as `quarry eval` scores them, body text only on both sides (the reference's
 *   furniture layer and our Header, Footer and PageNumber left out).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { headingScores, scoreDocument, tokens, type EvalElement, type HeadingScores } from '../../cli/src/eval/metrics.js';
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
  /** 1 for a top-level section header. */
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

/** The reference's body items in document order, as eval elements (headings as `Title`). */
function referenceElements(doc: DoclingDocument): EvalElement[] {
  const out: EvalElement[] = [];
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
      if (text.trim())
        out.push({
          type: heading ? 'Title' : 'NarrativeText',
          text,
          ...(heading ? { depth: item.label === 'title' ? 0 : Math.max(0, (item.level ?? 1) - 1) } : {}),
        });
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

const key = (text: string): string => tokens(text).join(' ');
const FURNITURE = new Set(['Header', 'Footer', 'PageNumber', 'PageBreak']);

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
    print({
      bench: 'headings',
      skipped: 'set QUARRY_HEADINGS_DATA to a folder of Docling test PDFs with their DoclingDocument JSON (<name>.pdf + <name>.json)',
    });
    return;
  }
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.pdf') && existsSync(path.join(dir, f.replace(/\.pdf$/, '.json'))))
    .map((f) => f.replace(/\.pdf$/, ''))
    .sort();
  for (const strategy of (process.env.STRATS ?? 'fast,hi_res').split(',') as ('fast' | 'hi_res')[]) {
    const rows: { name: string; h: HeadingScores; textF1: number; order: number }[] = [];
    for (const name of names) {
      const ref = referenceElements(JSON.parse(readFileSync(path.join(dir, `${name}.json`), 'utf8')) as DoclingDocument);
      const bytes = new Uint8Array(readFileSync(path.join(dir, `${name}.pdf`)));
      const elements = await pdfPartitioner.partition(bytes, formatOptions({ strategy, filename: `${name}.pdf` }));
      const body = elements.filter((e) => !FURNITURE.has(e.type));
      const ours: EvalElement[] = body.map((e) => ({
        type: e.type,
        text: e.text,
        ...(e.metadata.category_depth !== undefined ? { depth: e.metadata.category_depth } : {}),
      }));
      const h = headingScores(ours, ref);
      const s = scoreDocument(ours, ref);
      rows.push({ name, h, textF1: s.text_f1, order: s.order });
      print({
        bench: 'headings-doc',
        strategy,
        doc: name,
        precision: r3(h.heading_precision),
        recall: r3(h.heading_recall),
        titles: h.output_headings,
        reference_headings: h.expected_headings,
        matched: h.matched_headings,
        depth_agreement: r3(h.heading_levels),
        text_f1: round(s.text_f1),
        order: round(s.order),
        false_titles: body
          .filter((e) => e.type === 'Title' && !ref.some((r) => r.type === 'Title' && key(r.text) === key(e.text)))
          .map((e) => e.text.slice(0, 60)),
        missed: ref.filter((r) => r.type === 'Title' && !body.some((e) => e.type === 'Title' && key(r.text) === key(e.text))).map((r) => r.text.slice(0, 60)),
      });
    }
    const p = mean(rows.map((r) => r.h.heading_precision));
    const r = mean(rows.map((x) => x.h.heading_recall));
    const matched = rows.reduce((a, x) => a + x.h.matched_headings, 0);
    const out = rows.reduce((a, x) => a + x.h.output_headings, 0);
    const exp = rows.reduce((a, x) => a + x.h.expected_headings, 0);
    print({
      bench: 'headings-summary',
      strategy,
      documents: rows.length,
      precision: r3(p),
      recall: r3(r),
      f1: r3(f1(p, r)),
      micro_precision: r3(out ? matched / out : undefined),
      micro_recall: r3(exp ? matched / exp : undefined),
      depth_agreement: r3(mean(rows.map((x) => x.h.heading_levels))),
      text_f1: r3(mean(rows.map((x) => x.textF1))),
      order: r3(mean(rows.map((x) => x.order))),
    });
  }
  await stopPageWorker();
}

await main();
