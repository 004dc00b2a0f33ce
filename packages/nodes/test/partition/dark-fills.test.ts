import { describe, expect, it } from 'vitest';
import { fillRulings, findDarkFills, invertDarkFills } from '../../src/partition/dark-fills.js';
import { loadCanvas } from '../../src/partition/formats/pdf/pdfjs/render.js';

const W = 1200;
const H = 500;

/**
 * A page drawn with Skia: black text on white, and a table header row of three cells printed white
 * on a grey band, the cells parted by white lines; as one luma byte per pixel.
 */
async function page(): Promise<Uint8Array> {
  const { createCanvas } = await loadCanvas();
  const canvas = createCanvas(W, H);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#000';
  ctx.font = 'bold 28px sans-serif';
  ctx.fillText('Heavy black letters over the table', 100, 80);
  ctx.fillStyle = 'rgb(166,166,166)';
  ctx.fillRect(100, 200, 900, 60);
  ctx.fillStyle = '#fff';
  ctx.fillRect(399, 200, 3, 60);
  ctx.fillRect(699, 200, 3, 60);
  ctx.font = 'bold 26px sans-serif';
  ctx.fillText('Country', 150, 240);
  ctx.fillText('Domestic', 450, 240);
  ctx.fillText('Total', 780, 240);
  ctx.fillStyle = '#000';
  ctx.font = '26px sans-serif';
  ctx.fillText('Austria          86.2          3,375', 150, 300);
  const { data } = ctx.getImageData(0, 0, W, H);
  const grey = new Uint8Array(W * H);
  for (let i = 0; i < grey.length; i++) grey[i] = data[4 * i]!;
  return grey;
}

describe('dark fills', () => {
  it('finds the grey band with white text, and nothing in black text on white', async () => {
    const pixels = await page();
    const fills = findDarkFills(pixels, W, H, 1);
    expect(fills).toHaveLength(1);
    const [fill] = fills;
    expect(fill!.box).toEqual({ x0: 100, y0: 200, x1: 1000, y1: 260 });
    expect(fill!.level).toBe(166);
    // The two white lines between the cells are its walls.
    const walls = fillRulings(fills).filter((r) => r.x0 === r.x1 && r.x0 > 100 && r.x0 < 1000);
    expect(walls.map((r) => r.x0)).toEqual([400.5, 700.5]);
    expect(walls.every((r) => r.y0 === 200 && r.y1 === 260)).toBe(true);
  });

  it('turns the band white and its letters black, and leaves the rest of the page alone', async () => {
    const pixels = await page();
    const before = pixels.slice();
    const fills = findDarkFills(pixels, W, H, 1);
    invertDarkFills(pixels, W, 1, fills);
    const band = { dark: 0, total: 0, greyLeft: 0, whiteLeft: 0 };
    for (let y = 200; y < 260; y++) {
      for (let x = 100; x < 1000; x++) {
        const i = y * W + x;
        band.total++;
        if (pixels[i]! < 128) band.dark++;
        // The band is white where it was grey, black where the letters were white.
        if (before[i] === 166 && pixels[i] !== 255) band.greyLeft++;
        if (before[i] === 255 && (x < 399 || x > 401) && (x < 699 || x > 701) && pixels[i] !== 0) band.whiteLeft++;
      }
    }
    expect(band.greyLeft).toBe(0);
    expect(band.whiteLeft).toBe(0);
    // Letters, not a solid bar: a few percent of the band is dark.
    expect(band.dark / band.total).toBeGreaterThan(0.02);
    expect(band.dark / band.total).toBeLessThan(0.4);
    // The cell walls do not become black bars.
    expect([...Array(60).keys()].every((k) => pixels[(200 + k) * W + 400] === 255)).toBe(true);
    let changedOutside = 0;
    for (let i = 0; i < pixels.length; i++) {
      const y = Math.floor(i / W);
      const x = i % W;
      if ((y < 200 || y >= 260 || x < 100 || x >= 1000) && pixels[i] !== before[i]) changedOutside++;
    }
    expect(changedOutside).toBe(0);
  });

  it('reads RGBA pixels as their luma', async () => {
    const grey = await page();
    const rgba = new Uint8Array(W * H * 4);
    for (let i = 0; i < grey.length; i++) {
      rgba.fill(grey[i]!, 4 * i, 4 * i + 3);
      rgba[4 * i + 3] = 255;
    }
    const fills = findDarkFills(rgba, W, H, 4);
    expect(fills.map((f) => f.box)).toEqual(findDarkFills(grey, W, H, 1).map((f) => f.box));
    invertDarkFills(rgba, W, 4, fills);
    expect(rgba[4 * (230 * W + 300)]).toBe(255);
    expect(rgba[4 * (230 * W + 300) + 3]).toBe(255);
  });
});
