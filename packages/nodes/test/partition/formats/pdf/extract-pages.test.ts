import { afterAll, describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { extractLayouts } from '../../../../src/partition/formats/pdf/extract-pages.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { makePdf, textLines, type FixturePage } from './fixture.js';

afterAll(() => stopPageWorker());

function reportPage(n: number): FixturePage {
  return {
    texts: [
      { x: 72, y: 680, size: 18, text: 'Results of the Year', bold: true },
      ...textLines(['The company increased its revenue in every region this year, as planned.'], 72, 11, 656),
      { x: 300, y: 40, size: 9, text: String(n) },
    ],
  };
}

describe('extractLayouts', () => {
  it('reads a long document on two threads with the same result as on one', async () => {
    const pages = Array.from({ length: 30 }, (_, i) => reportPage(i + 1));
    const bytes = makePdf(pages);
    const one = await extractLayouts(bytes, { parallel: false });
    const two = await extractLayouts(bytes, { parallel: true });
    expect(two).toHaveLength(30);
    expect(two.map((l) => l!.blocks.map((b) => b.text))).toEqual(one.map((l) => l!.blocks.map((b) => b.text)));
    expect(two.map((l) => l!.blocks.map((b) => b.textClass?.type))).toEqual(one.map((l) => l!.blocks.map((b) => b.textClass?.type)));
  });

  it('still reads every page when the page worker dies during a document', async () => {
    const bytes = makePdf(Array.from({ length: 40 }, (_, i) => reportPage(i + 1)));
    const pending = extractLayouts(bytes, { parallel: true });
    setTimeout(() => void stopPageWorker(), 10);
    const layouts = await pending;
    expect(layouts.map((l) => l?.pageNumber)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(layouts.every((l) => l!.blocks.some((b) => b.text === 'Results of the Year'))).toBe(true);
  });

  it('reads every page when the worker is busy with another document', async () => {
    const a = makePdf(Array.from({ length: 30 }, (_, i) => reportPage(i + 1)));
    const b = makePdf(Array.from({ length: 20 }, (_, i) => reportPage(i + 1)));
    const [la, lb] = await Promise.all([extractLayouts(a, { parallel: true }), extractLayouts(b, { parallel: true })]);
    expect(la.map((l) => l?.pageNumber)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(lb.map((l) => l?.pageNumber)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('fails with kind unreadable for a file that is not a PDF', async () => {
    const e = await extractLayouts(new TextEncoder().encode('plain text')).catch((err: unknown) => err);
    expect(isQuarryError(e)).toBe(false);
    expect(e).toMatchObject({ kind: 'unreadable' });
  });
});
