import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectScript, ocrImage, releaseOcrWorkers } from '../../src/partition/ocr.js';
import { withPdf } from '../../src/partition/formats/pdf/pdfjs/load.js';
import { cropPng, renderPage } from '../../src/partition/formats/pdf/pdfjs/render.js';
import { textImage } from '../support/text-image.js';
import { corpusDir } from './reference-metrics.js';

const koreanPdf = path.join(corpusDir, 'docs', 'korean-text-with-tables.pdf');

/**
 * The Korean corpus PDF's page (Hangul text and tables) as a 200 dpi PNG. The whole page: OSD
 * takes a strip of a few Hangul lines for Japanese.
 */
async function hangulImage(): Promise<Uint8Array> {
  return withPdf(new Uint8Array(readFileSync(koreanPdf)), {}, async (doc) => {
    const page = await doc.getPage(1);
    const rendered = await renderPage(page, 200);
    const { width, height } = page.getViewport({ scale: 1 });
    return cropPng(rendered, { x0: 0, y0: 0, x1: width, y1: height }, 0);
  });
}

afterAll(() => releaseOcrWorkers());

describe('OCR with languages detected from the script (auto)', () => {
  it('detects a Latin page and reads it with eng', async () => {
    const png = await textImage(['Quarry reads scanned pages', 'and finds the script of each one']);
    expect(await detectScript(png)).toBe('Latin');
    const r = await ocrImage(png, { languages: ['auto'] });
    expect(r.script).toBe('Latin');
    expect(r.languages[0]).toBe('eng');
    expect(r.warnings).toEqual([]);
    expect(r.text.trim()).toBe('Quarry reads scanned pages\nand finds the script of each one');
  }, 120_000);

  it('reads a Cyrillic page as English when no Cyrillic data is installed, with a warning naming the package', async () => {
    const png = await textImage(['Война и мир — роман Льва Толстого', 'описывающий русское общество']);
    const r = await ocrImage(png);
    expect(r.script).toBe('Cyrillic');
    expect(r.languages).toEqual(['eng']);
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toContain('Cyrillic');
    expect(r.warnings[0]).toContain('@tesseract.js-data/rus');
  }, 120_000);

  describe.skipIf(!existsSync(koreanPdf))('a Hangul page (skipped: ../shared/corpus/docs/korean-text-with-tables.pdf absent)', () => {
    it('detects Korean and reads it with the installed kor data', async () => {
      const png = await hangulImage();
      const r = await ocrImage(png, { languages: ['auto'], dpi: 200 });
      expect(r.script).toBe('Korean');
      expect(r.languages).toEqual(['kor']);
      expect(r.warnings).toEqual([]);
      // The page's heading: "discount stores, gas stations, online shopping malls".
      expect(r.text.replace(/\s+/g, ' ')).toContain('할인점');
      expect(r.text).toContain('온라인쇼핑몰');
      // Read as English (the old behaviour), the same heading is Latin garbage.
      const english = await ocrImage(png, { languages: ['eng'], dpi: 200 });
      expect(english.text).not.toMatch(/[\uac00-\ud7a3]/);
    }, 180_000);
  });
});
