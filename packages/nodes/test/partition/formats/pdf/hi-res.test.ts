import { describe, expect, it } from 'vitest';
import { blockTypes } from '../../../../src/partition/block-types.js';
import { fragmentsFromOcr, ocrWordRuns } from '../../../../src/partition/formats/pdf/ocr-fragments.js';
import type { TextFragment } from '../../../../src/partition/formats/pdf/layout-types.js';
import type { OcrResult } from '../../../../src/partition/ocr.js';

describe('blockTypes', () => {
  it("accepts element types in any case and the reference's aliases", () => {
    expect([...blockTypes(['image', 'Table', 'Figure', 'List-item', 'Text', 'nonsense'])].sort()).toEqual(['Image', 'ListItem', 'NarrativeText', 'Table']);
  });
});

describe('fragmentsFromOcr', () => {
  it("gives every word of a line the line's baseline and row height, in points", () => {
    const word = (text: string, x0: number, confidence = 95) => ({ text, confidence, bbox: { x0, y0: 210, x1: x0 + 80, y1: 250 } });
    const ocr: OcrResult = {
      text: 'Hello world',
      confidence: 90,
      blocks: [],
      words: [],
      languages: ['eng'],
      warnings: [],
      lines: [
        {
          text: 'Hello world ~',
          confidence: 90,
          bbox: { x0: 200, y0: 200, x1: 600, y1: 260 },
          baseline: 250,
          rowHeight: 46,
          descent: 10,
          words: [word('Hello', 200), word('world', 300), word('~', 500, 20)],
        },
      ],
    };
    const scale = 200 / 72;
    const frags = fragmentsFromOcr(ocr, scale);
    expect(frags.map((f) => f.text)).toEqual(['Hello', 'world']);
    const [f] = frags;
    expect(f!.x0).toBeCloseTo(72);
    expect(f!.baseline).toBeCloseTo(90);
    expect(f!.bottom).toBeCloseTo(93.6);
    expect(f!.bottom - f!.top).toBeCloseTo(46 / scale);
    expect(frags[1]!.top).toBe(f!.top);
  });
});

describe('ocrWordRuns', () => {
  const frag = (text: string, x0: number, x1: number, top = 100): TextFragment => ({
    text,
    x0,
    x1,
    top,
    bottom: top + 10,
    baseline: top + 8,
    size: 10 / 1.15,
    font: 'ocr',
    dir: 0,
  });

  it('joins the words of a line at word spaces, not at wide gaps, across lines or cell walls', () => {
    const words = [
      frag('As', 72, 82),
      frag('in', 85, 93),
      frag('previous', 96, 130),
      frag('86.2', 200, 220),
      frag('13.8', 240, 260),
      frag('years,', 72, 100, 120),
    ];
    const wall = { x0: 230, x1: 230, y0: 90, y1: 115 };
    const runs = ocrWordRuns(words, [wall]);
    expect(runs.map((r) => r.text)).toEqual(['As in previous', '86.2', '13.8', 'years,']);
    expect(runs[0]).toMatchObject({ x0: 72, x1: 130, top: 100, bottom: 110 });
    // The font size the row's height gives, not the table readings' smaller one.
    expect(runs[0]!.size).toBeCloseTo(10.8);
    // Without the wall, two values a word space apart would join; with it they stay two cells.
    expect(ocrWordRuns([frag('86.2', 200, 220), frag('13.8', 224, 244)], []).map((r) => r.text)).toEqual(['86.2 13.8']);
    expect(ocrWordRuns([frag('86.2', 200, 220), frag('13.8', 224, 244)], [{ x0: 222, x1: 222, y0: 90, y1: 115 }]).map((r) => r.text)).toEqual(['86.2', '13.8']);
  });
});
