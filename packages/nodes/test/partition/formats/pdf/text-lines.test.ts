import { describe, expect, it } from 'vitest';
import type { TextFragment } from '../../../../src/partition/formats/pdf/layout-types.js';
import { buildLines, findGutters } from '../../../../src/partition/formats/pdf/text-lines.js';

/** A fragment of horizontal text whose baseline is at `y` (top-left page frame), half an em per character. */
function frag(text: string, x: number, y: number, size = 10, font = 'f1'): TextFragment {
  return { text, x0: x, x1: x + text.length * size * 0.5, top: y - 0.8 * size, bottom: y + 0.2 * size, baseline: y, size, font, dir: 0 };
}

describe('buildLines', () => {
  it('joins fragments on a baseline and inserts spaces at word gaps only', () => {
    const lines = buildLines([frag('Hello', 72, 100), frag('world', 72 + 25 + 3, 100), frag('s', 72 + 25 + 3 + 25, 100)]);
    expect(lines.map((l) => l.text)).toEqual(['Hello worlds']);
  });

  it('reads a right-to-left line from the right, a Latin run in it left to right, and takes in a word drawn in its gap', () => {
    // As in Docling's right_to_left_01.pdf title: the Arabic piece (its own text already in logical
    // order), "R" between it and "و", then "Python" at the left.
    const arabic = { ...frag('تحسين الإنتاجية بلغة', 58, 100), x1: 200 };
    const python = { ...frag('Python', 10, 100), x1: 40 };
    const wa = { ...frag('و', 42, 100), x1: 46 };
    const r = { ...frag('R', 49, 100.5), x1: 54 };
    // "R" comes last in the stream, in the space between pieces already joined into one line.
    const lines = buildLines([python, wa, arabic, r]);
    expect(lines.map((l) => l.text)).toEqual(['تحسين الإنتاجية بلغة R و Python']);
    // A left-to-right line with an Arabic word keeps its order.
    expect(buildLines([frag('Read', 10, 200), frag('كتاب', 35, 200), frag('today', 60, 200)]).map((l) => l.text)).toEqual(['Read كتاب today']);
  });

  it('keeps superscripts and stacked sub/superscripts on their line', () => {
    const base = frag('w', 100, 200, 10);
    const sup = { ...frag('(i)', 106, 196, 7) };
    const sub = { ...frag('1', 106, 203, 7) };
    const rest = frag(', x', 118, 200, 10);
    const lines = buildLines([base, sup, sub, rest]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text.replace(/\s/g, '')).toContain('w');
    expect(lines[0]!.size).toBe(10);
  });

  it('splits at a wide gap and at a column gutter even when the gutter is narrow', () => {
    // Two columns 12 points (1.2 em) apart: a gap that would pass for a word gap without the gutter.
    const left = Array.from({ length: 30 }, (_, i) => frag('left column words here', 72, 100 + i * 12));
    const right = Array.from({ length: 30 }, (_, i) => frag('right column text', 72 + 110 + 12, 100 + i * 12));
    const frags = left.flatMap((l, i) => [l, right[i]!]);
    expect(findGutters(frags).length).toBe(1);
    const lines = buildLines(frags);
    expect(lines).toHaveLength(60);
    expect(new Set(lines.map((l) => l.text))).toEqual(new Set(['left column words here', 'right column text']));
  });

  it('drops text drawn twice at the same place (fake bold)', () => {
    expect(buildLines([frag('Bold', 72, 100), frag('Bold', 72.3, 100)]).map((l) => l.text)).toEqual(['Bold']);
  });
});
