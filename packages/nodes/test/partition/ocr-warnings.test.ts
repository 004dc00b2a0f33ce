import { afterAll, describe, expect, it } from 'vitest';
import { elementToJSON, type Logger } from '@quarry/core';
import { partitionFile } from '../../src/partition/partition-file.js';
import { releaseOcrWorkers } from '../../src/partition/ocr.js';
import { textImage } from '../support/text-image.js';
import { makePdf, textLines } from './formats/pdf/fixture.js';

afterAll(() => releaseOcrWorkers());

function recordingLogger(): Logger & { warnings: { message: string; fields?: Record<string, unknown> }[] } {
  const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
  return { warnings, debug() {}, info() {}, warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }), error() {} };
}

// jpn stands for any requested language without data (kor data is installed for the script tests).
describe('a requested OCR language without installed data', () => {
  it('is a warning in metadata.ocr_warnings of the elements it concerns and, once, on the logger', async () => {
    const png = await textImage(['Scanned invoice number 42', 'Total due within thirty days']);
    const logger = recordingLogger();
    const elements = await partitionFile(png, { filename: 'scan.png', ocr_languages: ['eng', 'jpn'], logger });
    expect(elements.map((e) => e.text).join(' ')).toContain('Scanned invoice number 42');
    const json = elements.map(elementToJSON);
    for (const el of json) {
      expect(el.metadata.ocr_warnings).toEqual([expect.stringContaining('no OCR data is installed for jpn')]);
      expect((el.metadata.ocr_warnings as string[])[0]).toContain('@tesseract.js-data/jpn');
    }
    expect(logger.warnings).toEqual([{ message: expect.stringContaining('@tesseract.js-data/jpn'), fields: { filename: 'scan.png', pages: [1] } }]);
  }, 120_000);

  it("in a PDF read with OCR, is on the elements of every OCR'd page and logged once for all of them", async () => {
    const page = (n: number) => ({ texts: textLines([`Chapter ${n} of the scanned report`, 'The figures below were checked twice'], 72, 18) });
    const pdf = makePdf([page(1), page(2), page(3)]);
    const logger = recordingLogger();
    // ocr_only OCRs the pages asked for (2 and 3); page 1 is not read at all.
    const elements = await partitionFile(pdf, { filename: 'report.pdf', strategy: 'ocr_only', ocr_languages: ['eng', 'jpn'], pages: new Set([2, 3]), logger });
    expect(new Set(elements.map((e) => e.metadata.page_number))).toEqual(new Set([2, 3]));
    for (const el of elements) expect(el.metadata.ocr_warnings).toEqual([expect.stringContaining('@tesseract.js-data/jpn')]);
    expect(logger.warnings).toEqual([
      { message: expect.stringContaining('no OCR data is installed for jpn'), fields: { filename: 'report.pdf', pages: [2, 3] } },
    ]);
  }, 180_000);

  it('leaves metadata and logger alone when every language is installed', async () => {
    const logger = recordingLogger();
    const elements = await partitionFile(await textImage(['Nothing to warn about here']), { filename: 'ok.png', ocr_languages: ['eng'], logger });
    expect(elements.length).toBeGreaterThan(0);
    expect(elements.every((e) => e.metadata.ocr_warnings === undefined)).toBe(true);
    expect(logger.warnings).toEqual([]);
  }, 120_000);
});
