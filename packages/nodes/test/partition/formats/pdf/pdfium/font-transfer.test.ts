import { describe, expect, it } from 'vitest';
import type { PageText, TextFragment } from '../../../../../src/partition/formats/pdf/layout-types.js';
import { withFontsOf } from '../../../../../src/partition/formats/pdf/pdfium/font-transfer.js';

const frag = (text: string, x0: number, x1: number, top: number, font: string): TextFragment => ({
  text,
  x0,
  x1,
  top,
  bottom: top + 12,
  baseline: top + 10,
  size: 12,
  font,
  dir: 0,
});
const page = (fragments: TextFragment[], fonts?: PageText['fonts']): PageText => ({
  width: 600,
  height: 800,
  fragments,
  textChars: 0,
  badChars: 0,
  ...(fonts ? { fonts } : {}),
});

describe('withFontsOf', () => {
  it("gives pdf.js fragments the font PDFium drew at their place, with PDFium's styles", () => {
    // pdf.js: one run per line, in logical order; PDFium: runs in drawing order, with weights.
    const pdfjs = page([frag('عنوان التقرير', 100, 300, 50, 'g_d0_f1'), frag('نص الفقرة الأولى', 60, 400, 100, 'g_d0_f1')]);
    const pdfium = page(
      [frag('ريرقتلا', 100, 180, 50, 'pdfium-font-1'), frag('ناونع', 190, 300, 50, 'pdfium-font-1'), frag('ىلوألا ةرقفلا صن', 60, 400, 100, 'pdfium-font-2')],
      { 'pdfium-font-1': { bold: true, mono: false }, 'pdfium-font-2': { bold: false, mono: false } },
    );
    const out = withFontsOf(pdfjs, pdfium);
    expect(out.fragments.map((f) => [f.text, f.font])).toEqual([
      ['عنوان التقرير', 'pdfium-font-1'],
      ['نص الفقرة الأولى', 'pdfium-font-2'],
    ]);
    expect(out.fonts?.['pdfium-font-1']?.bold).toBe(true);
    // Text PDFium did not draw there keeps its own font; without styles nothing changes.
    expect(withFontsOf(page([frag('x', 500, 520, 700, 'g_d0_f9')]), pdfium).fragments[0]!.font).toBe('g_d0_f9');
    expect(withFontsOf(pdfjs, page(pdfium.fragments))).toBe(pdfjs);
  });
});
