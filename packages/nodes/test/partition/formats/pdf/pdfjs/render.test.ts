import { describe, expect, it } from 'vitest';
import { withPdf } from '../../../../../src/partition/formats/pdf/pdfjs/load.js';
import { cropPng, renderPage, toGreyPnm } from '../../../../../src/partition/formats/pdf/pdfjs/render.js';
import { makePdf } from '../fixture.js';

describe('renderPage', () => {
  it('renders a page at the given resolution, as greyscale PNM and as PNG crops', async () => {
    const bytes = makePdf([{ images: [{ x: 0, y: 692, width: 100, height: 100 }] }]);
    await withPdf(bytes, {}, async (doc) => {
      const rendered = await renderPage(await doc.getPage(1), 144);
      expect([rendered.width, rendered.height, rendered.scale]).toEqual([1224, 1584, 2]);
      const { pnm, rulings } = toGreyPnm(rendered);
      const header = 'P5\n1224 1584\n255\n';
      expect(Buffer.from(pnm.subarray(0, header.length)).toString('latin1')).toBe(header);
      expect(pnm.length).toBe(header.length + 1224 * 1584);
      // The fixture's image is mid-grey (0x80) in the top-left 100 x 100 points; the rest is white.
      expect(pnm[header.length + 50 * 1224 + 50]).toBeGreaterThan(0x70);
      expect(pnm[header.length + 50 * 1224 + 50]).toBeLessThan(0x90);
      expect(pnm[header.length + 1000 * 1224 + 1000]).toBe(255);
      // A filled square is no ruling line.
      expect(rulings).toEqual([]);
      const png = Buffer.from(await cropPng(rendered, { x0: 0, y0: 0, x1: 100, y1: 100 }, 0));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([200, 200]);
    });
  });
});
