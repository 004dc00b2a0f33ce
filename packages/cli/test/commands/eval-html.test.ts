import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, openReport } from '../../../nodes/test/support/chromium.js';
import { ROOT, runCli } from '../run-cli.js';

// Code passed to page.evaluate runs in Chromium; this program is typed without the DOM library.
type Dom = any;
declare const document: Dom;
declare const getComputedStyle: Dom;

const corpus = join(ROOT, '..', 'shared', 'corpus');

let dir: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-eval-html-'));
  if (!chromiumSkipReason) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The scores table, chart and per-document type rows, as shown. */
async function readReport(page: Dom) {
  return page.evaluate(() => ({
    rows: [...document.querySelectorAll('table.scores tbody tr')].map((r: Dom) => ({
      document: String(r.dataset.document),
      f1: Number(r.cells[1].dataset.v),
      inspect: r.querySelector('a.inspect')?.getAttribute('href') ?? null,
    })),
    bars: [...document.querySelectorAll('svg.chart .bar')].map((b: Dom) => ({
      document: String(b.dataset.document),
      value: Number(b.dataset.value),
      width: b.querySelector('rect.value').getBBox().width,
    })),
    marks: Object.fromEntries(
      [...document.querySelectorAll('details.doc')].map((d: Dom) => [
        d.dataset.document,
        [...d.querySelectorAll('table.type-rows tbody tr')].map((r: Dom) => `${r.className}:${r.cells[1].textContent}/${r.cells[2].textContent}`),
      ]),
    ),
  }));
}

describe.skipIf(chromiumSkipReason !== undefined)(`quarry eval --html in Chromium${chromiumSkipReason ? ` (skipped: ${chromiumSkipReason})` : ''}`, () => {
  it('marks where our types differ from the reference, and sorts by a column', async () => {
    const exp = join(dir, 'small', 'expected');
    const out = join(dir, 'small', 'out');
    await mkdir(exp, { recursive: true });
    await mkdir(out, { recursive: true });
    const expected = [
      { type: 'Title', text: 'Annual report' },
      { type: 'NarrativeText', text: 'Sales grew by a tenth this year.' },
      { type: 'ListItem', text: 'Hostile <script>alert(1)</script>' },
    ];
    await writeFile(join(exp, 'a.txt.json'), JSON.stringify(expected));
    await writeFile(
      join(out, 'a.txt.json'),
      JSON.stringify([
        { type: 'NarrativeText', text: 'Annual report' },
        { type: 'NarrativeText', text: 'Sales grew by a tenth this year.' },
        { type: 'Footer', text: 'Page one' },
      ]),
    );
    await writeFile(join(exp, 'b.txt.json'), JSON.stringify(expected.slice(0, 2)));
    await writeFile(join(out, 'b.txt.json'), JSON.stringify(expected.slice(0, 2)));
    const html = join(dir, 'small', 'report.html');
    const alone = await runCli(['eval', out, exp, '--docs', dir]);
    expect([alone.code, alone.stderr]).toEqual([2, 'quarry: --docs needs --html REPORT.html or --scanned\n']);
    const r = await runCli(['eval', out, exp, '--html', html]);
    expect(r.code).toBe(0);
    const { page, trouble } = await openReport(browser, join(dir, 'small'), 'view.html', await readFile(html, 'utf8'));
    const view = await readReport(page);
    expect(view.rows.map((x: { document: string }) => x.document)).toEqual(['a.txt', 'b.txt']);
    expect(view.bars.map((b: { document: string }) => b.document)).toEqual(['a.txt', 'b.txt']);
    expect(view.marks).toEqual({
      'a.txt': ['differs:Title/NarrativeText', ':NarrativeText/NarrativeText', 'missing:ListItem/', 'extra:/Footer'],
      'b.txt': [':Title/Title', ':NarrativeText/NarrativeText'],
    });
    await page.click('table.scores thead th:nth-child(2)');
    const ascending = await readReport(page);
    expect(ascending.rows.map((x: { document: string }) => x.document)).toEqual(['a.txt', 'b.txt']);
    await page.click('table.scores thead th:nth-child(2)');
    const descending = await readReport(page);
    expect(descending.rows.map((x: { document: string }) => x.document)).toEqual(['b.txt', 'a.txt']);
    expect(trouble).toEqual({ errors: [], dialogs: [] });
    await page.close();
  });

  it('shows each reference table beside ours, differing cells marked, with a tables-only reference', async () => {
    const exp = join(dir, 'tables', 'expected');
    const out = join(dir, 'tables', 'out');
    await mkdir(exp, { recursive: true });
    await mkdir(out, { recursive: true });
    const truth = '<table><tr><td colspan="2">Fruit</td></tr><tr><td>apples</td><td>3</td></tr><tr><td>pears</td><td>4</td></tr></table>';
    const ours = '<table><tr><td>Fruit</td><td></td></tr><tr><td>apples</td><td>3</td></tr><tr><td>pears</td><td>5</td></tr></table>';
    await writeFile(
      join(exp, 'prices.json'),
      JSON.stringify({
        tables: [
          { page: 1, html: truth },
          { page: 2, html: '<table><tr><td>Staff</td><td>12</td></tr></table>' },
        ],
      }),
    );
    await writeFile(
      join(out, 'prices.pdf.json'),
      JSON.stringify([{ type: 'Table', text: 'Fruit apples 3 pears 5', metadata: { page_number: 1, text_as_html: ours } }]),
    );
    const html = join(dir, 'tables', 'report.html');
    const r = await runCli(['eval', out, exp, '--html', html, '--json']);
    expect(r.code).toBe(0);
    const scores = JSON.parse(r.stdout) as { documents: Array<{ tables: Array<{ teds: number }> }> };
    const { page, trouble } = await openReport(browser, join(dir, 'tables'), 'view.html', await readFile(html, 'utf8'));
    const view = await page.evaluate(() =>
      [...document.querySelectorAll('.table-pair')].map((p: Dom) => ({
        teds: Number(p.dataset.teds),
        found: p.dataset.found,
        reference: [...p.querySelectorAll('table.reference td')].map((td: Dom) => `${td.textContent}${td.classList.contains('differs') ? '*' : ''}`),
        ours: [...p.querySelectorAll('table.ours td')].map((td: Dom) => `${td.textContent}${td.classList.contains('differs') ? '*' : ''}`),
      })),
    );
    expect(view).toEqual([
      {
        teds: scores.documents[0]!.tables[0]!.teds,
        found: 'true',
        reference: ['Fruit*', 'apples', '3', 'pears', '4*'],
        ours: ['Fruit*', '*', 'apples', '3', 'pears', '5*'],
      },
      { teds: scores.documents[0]!.tables[1]!.teds, found: 'false', reference: ['Staff*', '12*'], ours: ['Fruit*', '*', 'apples*', '3*', 'pears*', '5*'] },
    ]);
    // Marked cells are drawn differently from the others.
    const colours = await page.evaluate(
      () =>
        [...document.querySelectorAll('.table-pair')][0].querySelectorAll('table.reference td').length && [
          getComputedStyle(document.querySelector('table.reference td.differs')).backgroundColor,
          getComputedStyle(document.querySelector('table.reference td:not(.differs)')).backgroundColor,
        ],
    );
    expect(colours[0]).not.toBe(colours[1]);
    expect(trouble).toEqual({ errors: [], dialogs: [] });
    await page.close();
  });

  it.skipIf(!existsSync(corpus))(
    'reports the dev corpus: one bar per document, and each document inspectable (skipped without ../shared/corpus)',
    async () => {
      const expectedDir = join(corpus, 'expected');
      const documents = readdirSync(expectedDir)
        .filter((n) => n.endsWith('.json') && !n.endsWith('.chunks.json'))
        .map((n) => n.slice(0, -'.json'.length));
      const out = join(dir, 'corpus-out');
      const p = await runCli(['partition', ...documents.map((d) => join(corpus, 'docs', d)), '--strategy', 'fast', '--coordinates', '--output', out]);
      expect(p.stderr).toContain(`${documents.length} partitioned, 0 failed`);
      const html = join(dir, 'corpus', 'eval.html');
      const r = await runCli(['eval', out, expectedDir, '--html', html, '--docs', join(corpus, 'docs'), '--json']);
      expect(r.code).toBe(0);
      const scores = JSON.parse(r.stdout) as { documents: Array<{ document: string; text_f1: number }> };
      const { page, trouble } = await openReport(browser, join(dir, 'corpus'), 'view.html', await readFile(html, 'utf8'));
      const view = await readReport(page);
      expect(view.bars).toHaveLength(documents.length);
      expect(view.bars.map((b: { document: string }) => b.document)).toEqual(scores.documents.map((d) => d.document));
      expect(view.bars.map((b: { value: number }) => b.value)).toEqual(scores.documents.map((d) => d.text_f1));
      // Bar lengths follow the scores.
      const full = Math.max(...view.bars.map((b: { width: number }) => b.width));
      for (const b of view.bars) expect(b.width / full).toBeCloseTo(b.value / Math.max(...scores.documents.map((d) => d.text_f1)), 2);
      expect(view.rows).toHaveLength(documents.length);
      expect(view.rows.every((x: { inspect: string | null }) => x.inspect !== null)).toBe(true);
      const shot = join(dir, 'corpus', 'eval.png');
      await page.screenshot({ path: shot, fullPage: true });
      expect((await stat(shot)).size).toBeGreaterThan(10_000);
      expect(trouble).toEqual({ errors: [], dialogs: [] });

      // The link of a PDF leads to its inspection report, boxes drawn.
      const link = view.rows.find((x: { document: string }) => x.document === 'multi-column-2p.pdf')!.inspect as string;
      await page.click(`a.inspect[href="${link}"]`);
      await page.waitForSelector('section.page .box');
      const boxes = await page.evaluate(() => document.querySelectorAll('.box').length);
      const elements = JSON.parse(await readFile(join(out, 'multi-column-2p.pdf.json'), 'utf8')) as Array<{ metadata: { coordinates?: unknown } }>;
      expect(boxes).toBe(elements.filter((e) => e.metadata.coordinates).length);
      await page.close();
    },
    300_000,
  );
});
