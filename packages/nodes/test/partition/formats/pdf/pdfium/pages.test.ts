import { describe, expect, it } from 'vitest';
import { hasRightToLeft } from '../../../../../src/partition/formats/pdf/pdfium/pages.js';
import type { PageText } from '../../../../../src/partition/formats/pdf/layout-types.js';

/** A page whose fragments hold `texts`. */
function page(...texts: string[]): PageText {
  const fragments = texts.map((text, i) => ({ text, x0: 0, x1: 10, top: i * 12, bottom: i * 12 + 10, baseline: i * 12 + 8, size: 10, font: 'f', dir: 0 }));
  return { width: 612, height: 792, fragments, textChars: 0, badChars: 0 };
}

describe('hasRightToLeft', () => {
  it('finds Hebrew, Arabic, Syriac and Thaana text, in the basic plane and beyond it', () => {
    for (const text of ['שלום', 'مرحبا', 'ܫܠܡܐ', 'ދިވެހި', 'Arabic math 𞸀 letter', 'points ֑ (the first Hebrew accent)']) {
      expect(hasRightToLeft(page('Latin first', text)), text).toBe(true);
    }
  });

  it('finds none in left-to-right text of any script, nor in the code points just below Hebrew', () => {
    expect(hasRightToLeft(page('Plain text', 'Ünïcödé “quotes” — ﬁ', 'Ελληνικά Кириллица Հայերեն ՙ', '日本語 한국어 😀 𝒜'))).toBe(false);
    expect(hasRightToLeft(page())).toBe(false);
  });
});
