import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumSkipReason, launchChromium, openReport } from '../../../nodes/test/support/chromium.js';
import { ROOT, runCli } from '../run-cli.js';

// Code passed to page.evaluate runs in Chromium; this program is typed without the DOM library.
type Dom = any;
declare const document: Dom;

const corpus = join(ROOT, '..', 'shared', 'corpus', 'docs');
const columnsPdf = join(corpus, 'multi-column-2p.pdf');

let dir: string;
let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'quarry-inspect-cli-'));
  if (!chromiumSkipReason) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('quarry inspect', () => {
  it('refuses a missing document, an unknown strategy and an element file that is not an element array', async () => {
    const missing = await runCli(['inspect', join(dir, 'nope.pdf')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`quarry: cannot read document ${join(dir, 'nope.pdf')}: no such file\n`);
    const doc = join(dir, 'note.txt');
    await writeFile(doc, 'Hello\n');
    const strategy = await runCli(['inspect', doc, '--strategy', 'quick']);
    expect(strategy.code).toBe(2);
    expect(strategy.stderr).toBe('quarry: --strategy must be one of fast, hi_res, auto, ocr_only, got "quick"\n');
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"type": "Title"}');
    const elements = await runCli(['inspect', doc, '--elements', bad]);
    expect(elements.code).toBe(1);
    expect(elements.stderr).toBe(`quarry: ELEMENT_INVALID: element JSON must be an array (${bad})\n`);
  });

  it('writes an outline report for a text document, named after it in the working directory', async () => {
    const doc = join(dir, 'notes.md');
    await writeFile(doc, '# Notes\n\nA first paragraph of text.\n\n## Part\n\n- one item\n');
    const r = await runCli(['inspect', doc], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`4 elements; report written to ${join(dir, 'notes.md.html')}\n`);
    const html = await readFile(join(dir, 'notes.md.html'), 'utf8');
    expect(html).toContain('they are shown as an outline of their parent_id hierarchy');
    expect(html).toContain('<span class="badge">ListItem</span>');
  });

  describe.skipIf(!existsSync(columnsPdf))('a two-column PDF (skipped without ../shared/corpus)', () => {
    it.skipIf(chromiumSkipReason !== undefined)(
      `draws one box per element on its page${chromiumSkipReason ? ` (skipped: ${chromiumSkipReason})` : ''}`,
      async () => {
        const report = join(dir, 'columns.html');
        const r = await runCli(['inspect', columnsPdf, '--strategy', 'fast', '--output', report]);
        expect(r.code).toBe(0);
        const count = Number(/^(\d+) elements; report written to /.exec(r.stderr)?.[1]);
        expect(count).toBeGreaterThan(10);
        const { page, trouble } = await openReport(browser!, dir, 'columns-view.html', await readFile(report, 'utf8'));
        const view = await page.evaluate(() => ({
          pages: [...document.querySelectorAll('section.page')].map((s: Dom) => ({
            pictured: s.querySelector('img').naturalWidth > 0,
            boxes: s.querySelectorAll('.box').length,
          })),
          legend: [...document.querySelectorAll('.legend li')].map((l: Dom) => String(l.dataset.type)),
          types: [...new Set([...document.querySelectorAll('.box')].map((b: Dom) => String(b.dataset.type)))],
          caption: String(document.querySelector('.facts').textContent),
        }));
        expect(view.pages.map((p) => p.pictured)).toEqual([true, true]);
        expect(view.pages.every((p) => p.boxes > 0)).toBe(true);
        expect(view.pages.reduce((a, p) => a + p.boxes, 0)).toBe(count);
        expect([...view.types].sort()).toEqual([...view.legend].sort());
        expect(view.caption).toBe(`strategy fast · ${count} elements · ${count} with coordinates · 2 pages shown`);
        const shot = join(dir, 'columns.png');
        await page.screenshot({ path: shot });
        expect((await stat(shot)).size).toBeGreaterThan(10_000);
        expect(trouble).toEqual({ errors: [], dialogs: [] });
        await page.close();
      },
    );

    it("shows the elements of an element file over the document's pages (--elements)", async () => {
      const out = join(dir, 'partitioned');
      const p = await runCli(['partition', columnsPdf, '--strategy', 'fast', '--coordinates', '--output', out]);
      expect(p.code).toBe(0);
      const file = join(out, 'multi-column-2p.pdf.json');
      const elements = JSON.parse(await readFile(file, 'utf8')) as Array<{ metadata: { coordinates?: unknown; page_number?: number } }>;
      const report = join(dir, 'from-elements.html');
      const r = await runCli(['inspect', columnsPdf, '--elements', file, '--output', report, '--max-pages', '1']);
      expect(r.code).toBe(0);
      const html = await readFile(report, 'utf8');
      expect(html).toContain('elements from multi-column-2p.pdf.json');
      expect(html).toContain('Showing the first 1 of 2 pages');
      expect(html.match(/<div class="box" /g)).toHaveLength(elements.filter((e) => e.metadata.coordinates && e.metadata.page_number === 1).length);
    });
  });
});
