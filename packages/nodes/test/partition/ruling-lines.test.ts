import { describe, expect, it } from 'vitest';
import { eraseRulingLines, maxLineThickness } from '../../src/partition/ruling-lines.js';

// A white greyscale image with `draw` painting dark pixels.
function grey(width: number, height: number, draw: (set: (x: number, y: number, v?: number) => void) => void): Uint8Array {
  const px = new Uint8Array(width * height).fill(255);
  draw((x, y, v = 0) => {
    px[y * width + x] = v;
  });
  return px;
}

const rect = (set: (x: number, y: number, v?: number) => void, x0: number, y0: number, x1: number, y1: number, v = 0): void => {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) set(x, y, v);
};

describe('eraseRulingLines', () => {
  it('paints a table grid white, anti-aliased fringe included, and leaves the text in its cells', () => {
    const w = 400;
    const h = 200;
    const px = grey(w, h, (set) => {
      for (const y of [10, 100, 190]) rect(set, 10, y, 390, y + 2);
      rect(set, 10, 9, 390, 10, 180); // fringe above the first rule
      for (const x of [10, 200, 388]) rect(set, x, 10, x + 2, 192);
      // "Text": short strokes close to the grid lines, inside the cells.
      rect(set, 20, 14, 60, 16);
      rect(set, 20, 14, 23, 40);
      rect(set, 210, 104, 214, 130);
    });
    const painted = eraseRulingLines(px, w, h, 1);
    expect(painted).toBeGreaterThan(3 * 380 * 2);
    for (const [x, y] of [
      [100, 10],
      [100, 11],
      [100, 9],
      [11, 150],
      [200, 50],
      [389, 120],
      [300, 191],
    ] as const)
      expect(px[y * w + x]).toBe(255);
    for (const [x, y] of [
      [40, 15],
      [21, 30],
      [212, 120],
    ] as const)
      expect(px[y * w + x]).toBe(0);
  });

  it('leaves dark areas, thick strokes and short rules alone', () => {
    const w = 400;
    const h = 400;
    const px = grey(w, h, (set) => {
      rect(set, 0, 0, 400, 60); // a dark banner (white text on black)
      rect(set, 50, 100, 50 + 2 * maxLineThickness(w, h), 300); // the stem of a huge bold letter
      rect(set, 200, 200, 230, 202); // a dash: shorter than a rule
    });
    const before = px.slice();
    expect(eraseRulingLines(px, w, h, 1)).toBe(0);
    expect(px).toEqual(before);
  });

  it('works on RGBA by luma, painting colour channels and keeping alpha', () => {
    const w = 300;
    const h = 100;
    const px = new Uint8ClampedArray(w * h * 4).fill(255);
    for (let x = 10; x < 290; x++) {
      const i = 4 * (50 * w + x);
      px[i] = 20;
      px[i + 1] = 40;
      px[i + 2] = 200; // dark blue: luma about 46
      px[i + 3] = 200;
    }
    expect(eraseRulingLines(px, w, h, 4)).toBe(280);
    const i = 4 * (50 * w + 100);
    expect([...px.subarray(i, i + 4)]).toEqual([255, 255, 255, 200]);
  });

  it('rejects a buffer too small for its size', () => {
    expect(() => eraseRulingLines(new Uint8Array(10), 10, 10, 1)).toThrow(RangeError);
  });
});
