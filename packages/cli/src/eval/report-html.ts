/**
 * The HTML report of `quarry eval --html`: the figures of {@link EvalReport} as a sortable table
 * and a bar chart, and for each document its element types beside the reference's and each
 * reference table beside ours, differences marked. Self-contained (inline CSS, SVG and script), drawn in the colours of `quarry inspect`.
 */
import escapeHtml from 'escape-html';
import { elementTypeColor, htmlReportPage, INSPECTION_MAX_PAGES } from '@quarry/nodes';
import type { EvalReport, EvalRow } from './evaluate.js';
import { matchElements, type EvalElement } from './metrics.js';
import type { TableResult } from './table-scores.js';
import { renderTablePair } from './table-view.js';

/** A reference table and the predicted table that scored best against it, for the side-by-side view. */
export interface EvalTablePair {
  result: TableResult;
  /** HTML of the reference table. */
  reference: string;
  /** HTML of our best table; absent when the document has no predicted table with HTML. */
  ours?: string;
}

/** One document's elements, for the side-by-side view. */
export interface EvalDocumentElements {
  document: string;
  /** The elements of OUT_DIR (empty when the output is missing). */
  ours: EvalElement[];
  /** The reference elements; absent for a tables-only reference. */
  expected?: EvalElement[];
  /** Each reference table beside ours. */
  tables?: EvalTablePair[];
  /** Relative link to the document's inspection report, when the document was at hand. */
  inspectHref?: string;
}

// A document of thousands of elements would make the page unusable; the counts cover the rest.
const MAX_ROWS = 400;
const CHART_WIDTH = 760;
const BAR_HEIGHT = 18;
const LABEL_WIDTH = 250;

const pct = (x: number | undefined): string => (x === undefined ? '-' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | undefined): string => (x === undefined ? '' : String(x));

const CSS = `
*{box-sizing:border-box}
body{margin:0;padding:16px 24px;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f6f7f9}
h1{font-size:19px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 8px}
.facts{color:#555;font-size:13px}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #d5d9de;padding:3px 8px;text-align:left;vertical-align:top}
.scores th{cursor:pointer;user-select:none;background:#eef0f3;white-space:nowrap}
.scores th[aria-sort=ascending]::after{content:" \\25B2";font-size:10px}
.scores th[aria-sort=descending]::after{content:" \\25BC";font-size:10px}
.scores td.n{text-align:right;font-variant-numeric:tabular-nums}
.scores tfoot td{font-weight:600;background:#eef0f3}
.error{color:#b00020}
svg.chart{background:#fff;border:1px solid #d5d9de}
svg.chart text{font-size:12px;fill:#333}
svg.chart .bar rect.value{fill:#1f77b4}
svg.chart .bar.low rect.value{fill:#d62728}
svg.chart rect.track{fill:#eef0f3}
details.doc{background:#fff;border:1px solid #d5d9de;border-radius:4px;margin:8px 0;padding:6px 10px}
details.doc summary{cursor:pointer;font-weight:600}
.side-by-side{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start;margin-top:8px}
.badge{display:inline-block;font-size:11px;color:#fff;background:var(--c);border-radius:3px;padding:0 5px}
tr.differs td{background:#fff4e5}
table.cells td{max-width:220px;font-size:12px}table.cells td.differs{background:#fde2e1;outline:1px solid #d62728}
.table-pair{margin:10px 0}.table-pair h3{font-size:14px;margin:6px 0}tr.missing td{background:#fdecea}tr.extra td{background:#eaf2fd}
td.mark{font-weight:700;text-align:center}
.text{max-width:520px;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;color:#444}
.note{color:#8a5300;font-size:13px}
`;

// Sorting: a click on a column head orders the rows by its cells' data-v (numbers) or text; a
// link to a document opens its section.
const SCRIPT = `(function () {
  var table = document.querySelector('table.scores');
  var body = table.tBodies[0];
  table.querySelectorAll('thead th').forEach(function (th, col) {
    th.addEventListener('click', function () {
      var dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
      table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir);
      var rows = Array.prototype.slice.call(body.rows);
      function key(row) {
        var cell = row.cells[col];
        var v = cell.getAttribute('data-v');
        return v === null ? cell.textContent.toLowerCase() : Number(v);
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        var c = x < y ? -1 : x > y ? 1 : 0;
        return dir === 'ascending' ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  // A document's link opens its section.
  function openTarget() {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    if (target && target.tagName === 'DETAILS') target.open = true;
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();`;

function badge(type: string): string {
  return `<span class="badge" style="--c:${elementTypeColor(type)}">${escapeHtml(type)}</span>`;
}

function scoreCell(x: number | undefined): string {
  return `<td class="n" data-v="${x ?? -1}">${pct(x)}</td>`;
}

function scoresTable(report: EvalReport, links: Map<string, string>): string {
  const head = [
    'document',
    'text F1',
    'precision',
    'recall',
    'order',
    'types',
    'tables',
    'table recall',
    'table precision',
    'TEDS',
    'TEDS-S',
    'heading precision',
    'heading recall',
    'elements (ours / expected)',
    'inspect',
  ];
  const rows = report.documents.map((d: EvalRow, i) => {
    const link = links.get(d.document);
    const tables = d.expected_tables ? `${d.tables_found}/${d.expected_tables}` : '-';
    return (
      `<tr data-document="${escapeHtml(d.document)}"><td><a href="#doc-${i}">${escapeHtml(d.document)}</a>` +
      `${d.error ? ` <span class="error">(${escapeHtml(d.error)})</span>` : ''}</td>` +
      scoreCell(d.text_f1) +
      scoreCell(d.text_precision) +
      scoreCell(d.text_recall) +
      scoreCell(d.order) +
      scoreCell(d.type_agreement) +
      `<td class="n" data-v="${d.expected_tables ? (d.tables_found ?? 0) / d.expected_tables : -1}">${tables}</td>` +
      scoreCell(d.table_recall) +
      scoreCell(d.table_precision) +
      scoreCell(d.teds) +
      scoreCell(d.teds_s) +
      scoreCell(d.heading_precision) +
      scoreCell(d.heading_recall) +
      `<td class="n" data-v="${d.output_elements ?? 0}">${num(d.output_elements)} / ${num(d.expected_elements)}</td>` +
      `<td>${link ? `<a class="inspect" href="${escapeHtml(link)}">inspect</a>` : ''}</td></tr>`
    );
  });
  const m = report.mean;
  const foot =
    `<tr><td>mean</td><td class="n">${pct(m.text_f1)}</td><td></td><td></td><td class="n">${pct(m.order)}</td><td class="n">${pct(m.type_agreement)}</td><td class="n">${m.tables_found}/${m.expected_tables}</td>` +
    [m.table_recall, m.table_precision, m.teds, m.teds_s, m.heading_precision, m.heading_recall].map((x) => `<td class="n">${pct(x)}</td>`).join('') +
    '<td></td><td></td></tr>';
  return `<table class="scores"><thead><tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody><tfoot>${foot}</tfoot></table>`;
}

/** A horizontal bar per document: its text F1, with all of its scores in the tooltip. */
function chart(report: EvalReport): string {
  const width = CHART_WIDTH - LABEL_WIDTH - 60;
  const scored = report.documents.filter((d) => d.text_f1 !== undefined);
  const height = scored.length * (BAR_HEIGHT + 6) + 30;
  const bars = scored.map((d, i) => {
    const y = 24 + i * (BAR_HEIGHT + 6);
    const f1 = d.text_f1 ?? 0;
    const tip = `${d.document}: text F1 ${pct(d.text_f1)}, order ${pct(d.order)}, types ${pct(d.type_agreement)}${d.error ? ` (${d.error})` : ''}`;
    return (
      `<g class="bar${f1 < 0.9 ? ' low' : ''}" data-document="${escapeHtml(d.document)}" data-value="${f1}"><title>${escapeHtml(tip)}</title>` +
      `<text x="${LABEL_WIDTH - 6}" y="${y + BAR_HEIGHT - 5}" text-anchor="end">${escapeHtml(d.document)}</text>` +
      `<rect class="track" x="${LABEL_WIDTH}" y="${y}" width="${width}" height="${BAR_HEIGHT}"/>` +
      `<rect class="value" x="${LABEL_WIDTH}" y="${y}" width="${(width * f1).toFixed(1)}" height="${BAR_HEIGHT}"/>` +
      `<text x="${LABEL_WIDTH + width + 6}" y="${y + BAR_HEIGHT - 5}">${pct(d.text_f1)}</text></g>`
    );
  });
  return (
    `<svg class="chart" role="img" aria-label="text F1 per document" width="${CHART_WIDTH}" height="${height}" viewBox="0 0 ${CHART_WIDTH} ${height}">` +
    `<text x="${LABEL_WIDTH}" y="15">text F1 per document (red: below 90%)</text>${bars.join('')}</svg>`
  );
}

function typeCounts(elements: EvalElement[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of elements) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return counts;
}

function snippet(text: string): string {
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

const score = (x: number): string => x.toFixed(3);

/** Each reference table beside our best one, differing cells marked. */
function tablesView(pairs: readonly EvalTablePair[]): string {
  return pairs
    .map((p) => {
      const r = p.result;
      const view = renderTablePair(p.reference, p.ours);
      const pages = r.pages?.length ? ` (page ${r.pages.join(', ')})` : '';
      const facts = `${r.found ? 'found' : 'not found'} · TEDS ${score(r.teds)} · TEDS-S ${score(r.teds_s)} · cells differing: ${view.reference_differing} of the reference's, ${view.ours_differing} of ours`;
      return (
        `<div class="table-pair" data-table="${r.index}" data-teds="${r.teds}" data-teds-s="${r.teds_s}" data-found="${r.found}">` +
        `<h3>Table ${r.index + 1}${pages}</h3><p class="facts">${escapeHtml(facts)}</p><div class="side-by-side">` +
        `<div><div class="facts">reference</div>${view.reference}</div>` +
        `<div><div class="facts">ours${p.ours === undefined ? ': no table' : r.predicted >= 0 ? ` (predicted table ${r.predicted + 1})` : ''}</div>${view.ours}</div>` +
        '</div></div>'
      );
    })
    .join('');
}

/** The document's types beside the reference's (counts per type, then element by element), and its tables. */
function documentSection(row: EvalRow, index: number, doc: EvalDocumentElements): string {
  const tables = doc.tables?.length
    ? `<h3>Tables, reference beside ours (cells that differ in place, span or text are marked)</h3>${tablesView(doc.tables)}`
    : '';
  if (!doc.expected) {
    const summary = `${row.document} — TEDS ${row.teds === undefined ? '-' : score(row.teds)}, tables ${row.tables_found ?? 0}/${row.expected_tables ?? 0}`;
    return `<details class="doc" id="doc-${index}" data-document="${escapeHtml(row.document)}"><summary>${escapeHtml(summary)}</summary>${tables}</details>`;
  }
  const ours = typeCounts(doc.ours);
  const expected = typeCounts(doc.expected);
  const types = [...new Set([...expected.keys(), ...ours.keys()])];
  const countRows = types.map((t) => {
    const a = ours.get(t) ?? 0;
    const b = expected.get(t) ?? 0;
    return `<tr class="${a === b ? '' : 'differs'}"><td>${badge(t)}</td><td class="n">${a}</td><td class="n">${b}</td><td class="mark">${a === b ? '' : a > b ? '+' : '−'}</td></tr>`;
  });

  const pairs = matchElements(doc.ours, doc.expected);
  const ourIndexOf = new Map(pairs.map(([e, o]) => [e, o]));
  const matchedOurs = new Set(pairs.map(([, o]) => o));
  const rows: string[] = [];
  let differs = 0;
  doc.expected.forEach((e, i) => {
    const o = ourIndexOf.get(i);
    const our = o === undefined ? undefined : doc.ours[o]!;
    const cls = our === undefined ? 'missing' : our.type === e.type ? '' : 'differs';
    const mark = our === undefined ? 'missing' : our.type === e.type ? '' : '≠';
    if (mark) differs++;
    rows.push(
      `<tr class="${cls}"><td class="n">${i + 1}</td><td>${badge(e.type)}</td><td>${our ? badge(our.type) : ''}</td><td class="mark">${mark}</td><td class="text" title="${escapeHtml(snippet(e.text))}">${escapeHtml(snippet(e.text))}</td></tr>`,
    );
  });
  doc.ours.forEach((o, i) => {
    if (matchedOurs.has(i)) return;
    differs++;
    rows.push(
      `<tr class="extra"><td class="n"></td><td></td><td>${badge(o.type)}</td><td class="mark">extra</td><td class="text">${escapeHtml(snippet(o.text))}</td></tr>`,
    );
  });
  const cut = rows.length > MAX_ROWS ? `<p class="note">The first ${MAX_ROWS} of ${rows.length} rows.</p>` : '';
  return (
    `<details class="doc" id="doc-${index}" data-document="${escapeHtml(row.document)}">` +
    `<summary>${escapeHtml(row.document)} — types ${pct(row.type_agreement)}, ${differs === 1 ? '1 row differs' : `${differs} rows differ`}</summary>` +
    (doc.inspectHref ? `<p><a class="inspect" href="${escapeHtml(doc.inspectHref)}">inspect ${escapeHtml(row.document)}</a></p>` : '') +
    '<div class="side-by-side">' +
    `<table class="type-counts"><thead><tr><th>type</th><th>ours</th><th>expected</th><th></th></tr></thead><tbody>${countRows.join('')}</tbody></table>` +
    `<div>${cut}<table class="type-rows"><thead><tr><th>#</th><th>expected</th><th>ours</th><th></th><th>text (expected; ours for extras)</th></tr></thead><tbody>${rows.slice(0, MAX_ROWS).join('')}</tbody></table></div>` +
    `</div>${tables}</details>`
  );
}

/** Options of {@link renderEvalReport}. */
export interface EvalReportOptions {
  outDir: string;
  expectedDir: string;
}

/**
 * Renders the evaluation report as one self-contained HTML page: a sortable score table, a bar
 * chart of text F1 (one bar per document), and per document the element types beside the
 * reference's with the differences marked, each reference table beside ours with differing cells
 * marked, linked to its inspection report where there is one.
 */
export function renderEvalReport(report: EvalReport, documents: EvalDocumentElements[], options: EvalReportOptions): string {
  const byName = new Map(documents.map((d) => [d.document, d]));
  const links = new Map(documents.flatMap((d) => (d.inspectHref ? [[d.document, d.inspectHref] as [string, string]] : [])));
  const sections = report.documents.map((row, i) => documentSection(row, i, byName.get(row.document) ?? { document: row.document, ours: [], expected: [] }));
  const m = report.mean;
  const structure = [
    m.table_recall !== undefined ? `table recall ${pct(m.table_recall)}` : '',
    m.table_precision !== undefined ? `table precision ${pct(m.table_precision)}` : '',
    m.teds !== undefined ? `TEDS ${score(m.teds)} · TEDS-S ${score(m.teds_s ?? 0)}` : '',
    m.heading_precision !== undefined ? `headings precision ${pct(m.heading_precision)} · recall ${pct(m.heading_recall)}` : '',
  ].filter(Boolean);
  const hasText = report.documents.some((d) => d.text_f1 !== undefined);
  const body = [
    '<h1>quarry eval</h1>',
    `<div class="facts">${escapeHtml(`${report.documents.length} documents · outputs ${options.outDir} · reference ${options.expectedDir}`)}</div>`,
    `<div class="facts">${escapeHtml(`mean text F1 ${pct(report.mean.text_f1)} · order ${pct(report.mean.order)} · types ${pct(report.mean.type_agreement)} · tables ${report.mean.tables_found}/${report.mean.expected_tables}`)}</div>`,
    structure.length ? `<div class="facts structure">${escapeHtml(structure.join(' · '))}</div>` : '',
    links.size ? `<div class="facts">Inspection reports picture up to ${INSPECTION_MAX_PAGES} pages.</div>` : '',
    '<h2>Scores</h2>',
    '<p class="facts">Click a column head to sort.</p>',
    scoresTable(report, links),
    hasText ? '<h2>Text F1</h2>' : '',
    hasText ? chart(report) : '',
    '<h2>Documents: element types and tables, ours beside the reference</h2>',
    sections.join('\n'),
  ].join('\n');
  return htmlReportPage({ title: 'quarry eval', css: CSS, body, script: SCRIPT });
}
