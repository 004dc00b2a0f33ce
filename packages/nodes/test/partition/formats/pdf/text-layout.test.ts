import { describe, expect, it } from 'vitest';
import type { TextFragment } from '../../../../src/partition/formats/pdf/layout-types.js';
import { layoutFragments } from '../../../../src/partition/formats/pdf/text-layout.js';

/** A fragment of horizontal text whose baseline is at `y` (top-left page frame), half an em per character. */
function frag(text: string, x: number, y: number, size = 10, font = 'f1'): TextFragment {
  return { text, x0: x, x1: x + text.length * size * 0.5, top: y - 0.8 * size, bottom: y + 0.2 * size, baseline: y, size, font, dir: 0 };
}

/** A column of lines starting at (x, y), `leading` points apart. */
function column(lines: readonly string[], x: number, y: number, size = 10, leading = 12): TextFragment[] {
  return lines.map((t, i) => frag(t, x, y + i * leading, size));
}

describe('layoutFragments', () => {
  it('reads a two-column page column by column, after a full-width title', () => {
    const title = frag('A Title Spanning Both Columns Of The Page', 100, 60, 14);
    const leftCol = column(['left one', 'left two', 'left three'], 72, 100);
    const rightCol = column(['right one', 'right two', 'right three'], 320, 100);
    // Interleave as a content stream might: line by line across the page.
    const frags = [title, ...leftCol.flatMap((l, i) => [l, rightCol[i]!])];
    const blocks = layoutFragments(frags);
    expect(blocks.map((b) => b.text)).toEqual(['A Title Spanning Both Columns Of The Page', 'left one left two left three', 'right one right two right three']);
  });

  it('keeps columns whole when their paragraph gaps line up', () => {
    const left = [...column(['l1 a', 'l1 b'], 72, 100), ...column(['l2 a', 'l2 b'], 72, 150)];
    const right = [...column(['r1 a', 'r1 b'], 320, 100), ...column(['r2 a', 'r2 b'], 320, 150)];
    const blocks = layoutFragments([frag('Heading over both columns here', 72, 60, 12), ...left, ...right]);
    expect(blocks.map((b) => b.text)).toEqual(['Heading over both columns here', 'l1 a l1 b', 'l2 a l2 b', 'r1 a r1 b', 'r2 a r2 b']);
  });

  it('starts a paragraph at a first-line indent, a bullet, and a change of font size', () => {
    const frags = [
      frag('Section heading', 72, 80, 14),
      frag('The first paragraph runs over two lines and', 72, 100),
      frag('ends here.', 72, 112),
      frag('A second paragraph starts indented and runs', 90, 124),
      frag('on to a second line.', 72, 136),
      frag('• a bullet item', 72, 148),
      frag('• another item', 72, 160),
    ];
    const blocks = layoutFragments(frags);
    expect(blocks.map((b) => b.text)).toEqual([
      'Section heading',
      'The first paragraph runs over two lines and ends here.',
      'A second paragraph starts indented and runs on to a second line.',
      '• a bullet item',
      '• another item',
    ]);
    expect(blocks[0]!.size).toBe(14);
    expect(blocks[1]!.lineCount).toBe(2);
  });

  it('lays out rotated text in its own direction', () => {
    // Text reading bottom-to-top (dir 270): local frame x = -y, y = x.
    const up: TextFragment = { text: 'arXiv:2004.04906v3', x0: -600, x1: -400, top: 12, bottom: 32, baseline: 28, size: 20, font: 'f', dir: 270 };
    const blocks = layoutFragments([up, frag('Body text', 72, 100)]);
    const rotated = blocks.find((b) => b.text.startsWith('arXiv'))!;
    expect(rotated.box.x0).toBeCloseTo(12);
    expect(rotated.box.x1).toBeCloseTo(32);
    expect(rotated.box.y0).toBeCloseTo(400);
    expect(rotated.box.y1).toBeCloseTo(600);
  });
});
