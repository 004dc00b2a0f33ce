import { describe, expect, it } from 'vitest';
import { withPdf } from '../../../../src/partition/formats/pdf/pdfjs/load.js';
import { extractPageLayout } from '../../../../src/partition/formats/pdf/page-layout.js';
import { makePdf, textLines } from './fixture.js';

describe('extractPageLayout', () => {
  it('reads a page into classified blocks with its size and character counts', async () => {
    const bytes = makePdf([
      {
        width: 400,
        height: 600,
        texts: [{ x: 40, y: 540, size: 16, text: 'A Short Heading' }, ...textLines(['The body sentence of the page is here.'], 40, 10, 500)],
      },
    ]);
    const layout = await withPdf(bytes, {}, (doc) => extractPageLayout(doc, 1));
    expect([layout.pageNumber, layout.width, layout.height]).toEqual([1, 400, 600]);
    expect(layout.blocks.map((b) => [b.text, b.textClass?.type])).toEqual([
      ['A Short Heading', 'Title'],
      ['The body sentence of the page is here.', 'NarrativeText'],
    ]);
    expect(layout.textChars).toBe('AShortHeadingThebodysentenceofthepageishere'.length);
    expect(layout.badChars).toBe(0);
    const unclassified = await withPdf(bytes, {}, (doc) => extractPageLayout(doc, 1, { classify: false }));
    expect(unclassified.blocks.every((b) => b.textClass === undefined)).toBe(true);
  });
});
