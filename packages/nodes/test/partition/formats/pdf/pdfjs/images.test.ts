import { describe, expect, it } from 'vitest';
import { findPageImages } from '../../../../../src/partition/formats/pdf/pdfjs/images.js';
import { loadPdfjs, withPdf } from '../../../../../src/partition/formats/pdf/pdfjs/load.js';
import { makePdf } from '../fixture.js';

describe('findPageImages', () => {
  it('gives the page boxes (top-left origin) of painted images, without tiny ones', async () => {
    const bytes = makePdf([
      {
        images: [
          { x: 72, y: 500, width: 200, height: 100 },
          { x: 300, y: 100, width: 250, height: 250 },
          { x: 10, y: 10, width: 8, height: 8 },
        ],
      },
    ]);
    const pdfjs = await loadPdfjs();
    const boxes = await withPdf(bytes, {}, async (doc) => findPageImages(await doc.getPage(1), pdfjs));
    expect(boxes).toHaveLength(2);
    const round = (b: { x0: number; y0: number; x1: number; y1: number }) => [b.x0, b.y0, b.x1, b.y1].map((v) => Math.round(v));
    expect(boxes.map(round)).toEqual([
      [72, 192, 272, 292],
      [300, 442, 550, 692],
    ]);
  });
});
