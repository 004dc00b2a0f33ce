import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectScript, ocrImage, releaseOcrWorkers } from '../../src/partition/ocr.js';
import { withPdf } from '../../src/partition/formats/pdf/pdfjs/load.js';
import { cropPng, renderPage } from '../../src/partition/formats/pdf/pdfjs/render.js';
import { partitionFile } from '../../src/partition/partition-file.js';
import { textImage } from '../support/text-image.js';
import { TWO_SCRIPT_SOURCES, twoScriptPage } from '../support/two-script-page.js';
import { corpusDir, tokenF1 } from './reference-metrics.js';

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

describe('a list of languages', () => {
  it('reads with every language of a + or , list (eng,kor crashed the partition process)', async () => {
    const png = await textImage(['Quarry reads a list of languages', 'given with plus signs or commas']);
    for (const languages of [['eng,kor'], ['eng+kor'], ['eng', 'kor']]) {
      const r = await ocrImage(png, { languages });
      expect(r.languages).toEqual(['eng', 'kor']);
      expect(r.warnings).toEqual([]);
      expect(r.text.replace(/\s+/g, ' ').trim()).toBe('Quarry reads a list of languages given with plus signs or commas');
    }
  }, 180_000);
});

const HANGUL = /[\uac00-\ud7a3]/;

describe('a page in two scripts, under auto languages', () => {
  describe.skipIf(!TWO_SCRIPT_SOURCES.every(existsSync))('English and Korean paragraphs (skipped: corpus PDFs absent)', () => {
    it('reads each paragraph in its own script: token F1 at least 0.85 against the text layers', async () => {
      const page = await twoScriptPage();
      const elements = await partitionFile(page.png, { filename: 'two-scripts.png', strategy: 'hi_res' });
      const text = elements.map((e) => e.text).join('\n');
      // Read with eng alone, as before, the Korean half was Latin garbage: 0.64.
      expect(tokenF1([{ text }], [{ text: page.words.join(' ') }])).toBeGreaterThanOrEqual(0.85);
      const got = new Set(text.split(/\s+/u));
      const koreanFound = page.korean.filter((w) => HANGUL.test(w) && got.has(w)).length;
      expect(koreanFound / page.korean.filter((w) => HANGUL.test(w)).length).toBeGreaterThanOrEqual(0.8);
      // Hangul words whole, not syllable by syllable.
      expect(text).toContain('무이자할부,');
      expect(elements.every((e) => e.metadata.ocr_warnings === undefined)).toBe(true);
    }, 300_000);
  });

  it('warns, naming the package, when lines are in a script whose data is not installed', async () => {
    const png = await textImage([
      'Quarry reads scanned pages and finds the script',
      'of each line, so that a page in two scripts',
      'is read in both of them when it can be',
      'Война и мир — роман Льва Толстого',
      'описывающий русское общество в эпоху',
      'войн против Наполеона в 1805—1812 годах',
    ]);
    const r = await ocrImage(png);
    expect(r.script).toBe('Latin');
    expect(r.text).toContain('Quarry reads scanned pages and finds the script');
    expect(r.warnings).toEqual([
      expect.stringMatching(
        /^OCR found 3 lines in Cyrillic script but no Cyrillic language data is installed; read with eng\. Install @tesseract\.js-data\/rus /,
      ),
    ]);
  }, 180_000);
});
