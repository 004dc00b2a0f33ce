import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Element as QuarryElement } from '@quarry/core';
import { partitionFile, renderInspection } from '../../src/index.js';
import { chromiumSkipReason, launchChromium, openReport } from '../support/chromium.js';
import { corpusBytes, hasCorpus } from '../partition/reference-metrics.js';

// Code passed to page.evaluate runs in Chromium; this program is typed without the DOM library.
type Dom = any;
declare const document: Dom;
declare function getComputedStyle(element: Dom): Dom;

let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'quarry-inspect-'));
  if (!chromiumSkipReason) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What a person sees on the report, read from the rendered page. */
async function seen(page: Page) {
  return page.evaluate(() => {
    const rect = (e: Dom) => e.getBoundingClientRect();
    const sheets = [...document.querySelectorAll('section.page')].map((s: Dom) => {
      const sheet = rect(s.querySelector('.sheet')!);
      const img = s.querySelector('img');
      const boxes = [...s.querySelectorAll('.box')].map((b: Dom) => {
        const r = rect(b);
        return {
          i: Number(b.dataset.i),
          type: b.dataset.type!,
          label: b.querySelector('.num')!.textContent,
          visible:
            r.width > 0 && r.height > 0 && r.left >= sheet.left - 1 && r.right <= sheet.right + 1 && r.top >= sheet.top - 1 && r.bottom <= sheet.bottom + 1,
          left: (r.left - sheet.left) / sheet.width,
        };
      });
      return { page: Number(s.dataset.page), pictured: !!img && img.complete && img.naturalWidth > 0, boxes };
    });
    const legend = [...document.querySelectorAll('.legend li')].map((l: Dom) => String(l.dataset.type));
    const list = [...document.querySelectorAll('.list li')].map((l: Dom) => ({
      type: l.querySelector('.badge')!.textContent,
      text: l.querySelector('.text')!.textContent,
      indent: parseFloat(getComputedStyle(l).marginLeft),
    }));
    return { sheets, legend, list, notes: [...document.querySelectorAll('.note')].map((n: Dom) => String(n.textContent)) };
  });
}

const withCoordinates = (elements: QuarryElement[]): number => elements.filter((e) => e.metadata.coordinates).length;

describe.skipIf(chromiumSkipReason !== undefined)(`renderInspection in Chromium${chromiumSkipReason ? ` (skipped: ${chromiumSkipReason})` : ''}`, () => {
  describe.skipIf(!hasCorpus)('corpus documents (skipped without ../shared/corpus)', () => {
    let columns: QuarryElement[];
    let columnsBytes: Uint8Array;
    beforeAll(async () => {
      columnsBytes = corpusBytes('multi-column-2p.pdf');
      columns = await partitionFile(columnsBytes, { filename: 'multi-column-2p.pdf', strategy: 'fast', coordinates: true });
    });

    it('draws every element of a two-column PDF as a numbered box on its pictured page, with a legend of the types shown', async () => {
      const html = await renderInspection(columns, columnsBytes, { filename: 'multi-column-2p.pdf', caption: 'strategy fast' });
      const { page, trouble } = await openReport(browser, dir, 'multi-column.html', html);
      const view = await seen(page);
      expect(view.sheets.map((s) => [s.page, s.pictured])).toEqual([
        [1, true],
        [2, true],
      ]);
      for (const sheet of view.sheets) expect(sheet.boxes.length).toBeGreaterThan(0);
      const boxes = view.sheets.flatMap((s) => s.boxes);
      expect(withCoordinates(columns)).toBe(columns.length);
      expect(boxes).toHaveLength(withCoordinates(columns));
      expect(boxes.every((b) => b.visible)).toBe(true);
      // Numbered in reading order: the number is the element's place in the list.
      expect(boxes.map((b) => b.label)).toEqual(boxes.map((b) => String(b.i + 1)));
      expect([...new Set(boxes.map((b) => b.type))].sort()).toEqual([...view.legend].sort());
      // Both columns carry boxes: the page is read as two columns, not one.
      const first = view.sheets[0]!.boxes;
      expect(first.some((b) => b.left < 0.4) && first.some((b) => b.left > 0.5)).toBe(true);
      expect(view.list.map((l) => l.type)).toEqual(columns.map((e) => e.type));

      // Clicking a box shows its type, text and metadata.
      const title = columns.findIndex((e) => e.type === 'Title');
      await page.click(`.box[data-i="${title}"]`);
      const details = await page.$eval('#details', (d: Dom) => ({
        title: d.querySelector('.d-title')!.textContent,
        text: d.querySelector('.d-text')!.textContent,
        meta: JSON.parse(d.querySelector('.d-meta')!.textContent!) as { metadata: { page_number: number; coordinates: unknown } },
      }));
      expect(details.title).toBe(`#${title + 1} Title (page 1)`);
      expect(details.text).toBe(columns[title]!.text);
      expect(details.meta.metadata.page_number).toBe(1);
      expect(details.meta.metadata.coordinates).toEqual(columns[title]!.metadata.coordinates);
      expect(await page.$eval(`.list li[data-i="${title}"]`, (l: Dom) => l.classList.contains('selected'))).toBe(true);

      const shot = path.join(dir, 'multi-column.png');
      await page.screenshot({ path: shot });
      expect((await stat(shot)).size).toBeGreaterThan(10_000);
      expect(trouble).toEqual({ errors: [], dialogs: [] });
      await page.close();
    });

    it('pictures only the first maxPages pages and says so; the later elements stay in the list', async () => {
      const html = await renderInspection(columns, columnsBytes, { filename: 'multi-column-2p.pdf', maxPages: 1 });
      const { page } = await openReport(browser, dir, 'one-page.html', html);
      const view = await seen(page);
      expect(view.sheets.map((s) => s.page)).toEqual([1]);
      expect(view.sheets[0]!.boxes).toHaveLength(columns.filter((e) => e.metadata.page_number === 1).length);
      expect(view.notes).toEqual(['Showing the first 1 of 2 pages; the elements of later pages are listed but not drawn.']);
      expect(view.list).toHaveLength(columns.length);
      await page.close();
    });

    it('draws the OCR boxes of a scanned page (hi_res) on its picture', async () => {
      const bytes = corpusBytes('loremipsum-flat.pdf');
      const elements = await partitionFile(bytes, { filename: 'loremipsum-flat.pdf', strategy: 'hi_res', coordinates: true });
      expect(withCoordinates(elements)).toBeGreaterThan(0);
      const html = await renderInspection(elements, bytes, { filename: 'loremipsum-flat.pdf', caption: 'strategy hi_res' });
      // One page at 96 dpi: a picture of a modest size, not the 200 dpi scan.
      expect(html.length).toBeLessThan(400_000);
      const { page, trouble } = await openReport(browser, dir, 'scan.html', html);
      const view = await seen(page);
      expect(view.sheets).toHaveLength(1);
      expect(view.sheets[0]!.pictured).toBe(true);
      expect(view.sheets[0]!.boxes).toHaveLength(withCoordinates(elements));
      expect(view.sheets[0]!.boxes.every((b) => b.visible)).toBe(true);
      expect([...new Set(view.sheets[0]!.boxes.map((b) => b.type))].sort()).toEqual([...view.legend].sort());
      await page.screenshot({ path: path.join(dir, 'scan.png') });
      expect(trouble).toEqual({ errors: [], dialogs: [] });
      await page.close();
    }, 120_000);

    it('shows a DOCX, which has no coordinates, as an outline of its parent_id hierarchy', async () => {
      const elements = await partitionFile(corpusBytes('handbook-1p.docx'), { filename: 'handbook-1p.docx' });
      const children = elements.filter((e) => e.metadata.parent_id);
      expect(children.length).toBeGreaterThan(0);
      const html = await renderInspection(elements, corpusBytes('handbook-1p.docx'), { filename: 'handbook-1p.docx' });
      const { page } = await openReport(browser, dir, 'docx.html', html);
      const view = await seen(page);
      expect(view.sheets).toEqual([]);
      expect(view.notes).toEqual(['The elements have no coordinates: they are shown as an outline of their parent_id hierarchy.']);
      expect(view.list.map((l) => l.type)).toEqual(elements.map((e) => e.type));
      expect([...view.legend].sort()).toEqual([...new Set(elements.map((e) => e.type))].sort());
      elements.forEach((e, i) => {
        const parent = elements.findIndex((p) => p.element_id === e.metadata.parent_id);
        if (parent >= 0) expect(view.list[i]!.indent).toBeGreaterThan(view.list[parent]!.indent);
      });
      await page.close();
    });
  });

  it('shows hostile element text and table HTML as text: nothing of it runs or loads', async () => {
    const coordinates = {
      points: [
        [10, 10],
        [10, 40],
        [200, 40],
        [200, 10],
      ] as Array<[number, number]>,
      system: 'PixelSpace',
      layout_width: 400,
      layout_height: 300,
    };
    const elements: QuarryElement[] = [
      { element_id: 'a', type: 'Title', text: '<script>alert("title")</script><img src=x onerror="alert(1)">', metadata: { page_number: 1, coordinates } },
      {
        element_id: 'b',
        type: 'Table',
        text: 'cell',
        metadata: {
          text_as_html:
            '<table><tr><td colspan="2" onclick="alert(2)">a &lt;b&gt;<script>alert(3)</script><img src="https://example.com/x.png"></td></tr><tr><td>c</td><td><a href="javascript:alert(4)">d</a></td></tr>',
        },
      },
      { element_id: 'c', type: 'NarrativeText', text: '</script><script>alert(5)</script>"\'&', metadata: { parent_id: 'b' } },
    ];
    // No document: the element with coordinates is drawn on a blank page of its layout size.
    const html = await renderInspection(elements, undefined, { filename: '<b>evil</b>.pdf' });
    const { page, trouble } = await openReport(browser, dir, 'hostile.html', html);
    const view = await seen(page);
    expect(view.sheets).toEqual([{ page: 1, pictured: false, boxes: [expect.objectContaining({ i: 0, type: 'Title', visible: true })] }]);
    expect(view.list.map((l) => l.text)).toEqual([elements[0]!.text, 'cell', elements[2]!.text]);
    const dom = await page.evaluate(() => ({
      h1: document.querySelector('h1')!.textContent,
      scripts: document.scripts.length,
      images: document.images.length,
      table: document.querySelector('.table-view')!.innerHTML,
    }));
    expect(dom).toEqual({
      h1: '<b>evil</b>.pdf',
      // The data block and the report's own script.
      scripts: 2,
      images: 0,
      table: '<table><tbody><tr><td colspan="2">a &lt;b&gt;</td></tr><tr><td>c</td><td>d</td></tr></tbody></table>',
    });
    await page.click('.box[data-i="0"]');
    expect(await page.$eval('#details .d-text', (d: Dom) => d.textContent)).toBe(elements[0]!.text);
    expect(trouble).toEqual({ errors: [], dialogs: [] });
    await page.close();
  });
});
