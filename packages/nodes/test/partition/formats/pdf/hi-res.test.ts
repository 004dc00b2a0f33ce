import { describe, expect, it } from 'vitest';
import { blockTypes } from '../../../../src/partition/block-types.js';
import { fragmentsFromOcr } from '../../../../src/partition/formats/pdf/ocr-fragments.js';
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
