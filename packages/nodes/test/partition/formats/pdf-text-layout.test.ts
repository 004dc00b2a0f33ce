import { describe, expect, it } from 'vitest';
import type { TextFragment } from '../../../src/partition/formats/pdf-layout-types.js';
import { fragmentsFromTextContent, normalizeLigatures } from '../../../src/partition/formats/pdf-text-items.js';
import { buildLines, findGutters, joinLineTexts, layoutFragments, orderBlocks } from '../../../src/partition/formats/pdf-text-layout.js';

/** A fragment of horizontal text whose baseline is at `y` (top-left page frame), 0.55 em per char. */
function frag(text: string, x: number, y: number, size = 10, font = 'f1'): TextFragment {
  return { text, x0: x, x1: x + text.length * size * 0.5, top: y - 0.8 * size, bottom: y + 0.2 * size, baseline: y, size, font, dir: 0 };
}

/** A column of lines starting at (x, y), `leading` points apart. */
function column(lines: readonly string[], x: number, y: number, size = 10, leading = 12): TextFragment[] {
  return lines.map((t, i) => frag(t, x, y + i * leading, size));
}

describe('normalizeLigatures', () => {
  it('expands Latin ligature characters and leaves other compatibility characters alone', () => {
    expect(normalizeLigatures('e\uFB03cient \uFB01le \uFB02ow')).toBe('efficient file flow');
    expect(normalizeLigatures('ＡＢＣ ½ ²')).toBe('ＡＢＣ ½ ²');
  });
});

describe('fragmentsFromTextContent', () => {
  it('puts items on the displayed page, drops whitespace items and counts letters', () => {
    const items = [
      { str: 'Hello', transform: [12, 0, 0, 12, 72, 700], width: 30, fontName: 'f1', hasEOL: false },
      { str: '   ', transform: [12, 0, 0, 12, 102, 700], width: 90, fontName: 'f1', hasEOL: false },
      { str: 'up', transform: [0, 12, -12, 0, 30, 100], width: 12, fontName: 'f1', hasEOL: false },
    ];
    const { fragments, textChars } = fragmentsFromTextContent(items, { f1: { ascent: 0.75, descent: -0.25 } }, [1, 0, 0, -1, 0, 792]);
    expect(fragments).toHaveLength(2);
    const [h, up] = fragments;
    expect(h).toMatchObject({ text: 'Hello', x0: 72, x1: 102, baseline: 92, top: 83, bottom: 95, size: 12, dir: 0 });
    // Text rotated 90° counter-clockwise in PDF space reads bottom-to-top on the page.
    expect(up!.dir).toBe(270);
    expect(textChars).toBe(7);
  });

  it('counts characters of a broken text layer', () => {
    const items = [{ str: '\uFFFD\uFFFD\uE001ab', transform: [10, 0, 0, 10, 0, 0], width: 20, fontName: 'x' }];
    const r = fragmentsFromTextContent(items, {}, [1, 0, 0, -1, 0, 100]);
    expect(r.badChars).toBe(3);
    expect(r.textChars).toBe(2);
  });
});

describe('buildLines', () => {
  it('joins fragments on a baseline and inserts spaces at word gaps only', () => {
    const lines = buildLines([frag('Hello', 72, 100), frag('world', 72 + 25 + 3, 100), frag('s', 72 + 25 + 3 + 25, 100)]);
    expect(lines.map((l) => l.text)).toEqual(['Hello worlds']);
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

describe('joinLineTexts', () => {
  it('joins hyphenated words, keeps compound hyphens and joins CJK without spaces', () => {
    expect(joinLineTexts(['relies on ef-', 'ficient retrieval'])).toBe('relies on efficient retrieval');
    expect(joinLineTexts(['a strong Lucene-', 'BM25 system'])).toBe('a strong Lucene-BM25 system');
    expect(joinLineTexts(['soft\u00AD', 'hyphen'])).toBe('softhyphen');
    expect(joinLineTexts(['a dash -', 'then'])).toBe('a dash - then');
    expect(joinLineTexts(['電線接続', '端子部'])).toBe('電線接続端子部');
    expect(joinLineTexts(['한국어', '문장'])).toBe('한국어 문장');
  });
});

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

describe('orderBlocks', () => {
  it('orders side-by-side boxes left to right and stacked boxes top to bottom', () => {
    const b = (id: string, x0: number, y0: number, x1: number, y1: number) => ({ id, box: { x0, y0, x1, y1 } });
    const order = orderBlocks([b('footer', 72, 750, 540, 760), b('right', 320, 100, 540, 700), b('left', 72, 100, 300, 700), b('title', 72, 50, 540, 80)]);
    expect(order.map((o) => o.id)).toEqual(['title', 'left', 'right', 'footer']);
  });
});
