import { describe, expect, it } from 'vitest';
import { fragmentsFromTextContent, normalizeLigatures } from '../../../../../src/partition/formats/pdf/pdfjs/text-items.js';

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
