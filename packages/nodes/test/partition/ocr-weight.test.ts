import { createRequire } from 'node:module';
import path from 'node:path';
import { GlobalFonts } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCanvas } from '../../src/partition/formats/pdf/pdfjs/render.js';
import { ocrImage, releaseOcrWorkers } from '../../src/partition/ocr.js';
import { boldLines } from '../../src/partition/ocr-weight.js';

// Fonts that ship inside pdfjs-dist, so the page does not depend on system fonts.
const fonts = path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts');
GlobalFonts.registerFromPath(path.join(fonts, 'LiberationSans-Regular.ttf'), 'QuarryWeightRegular');
GlobalFonts.registerFromPath(path.join(fonts, 'LiberationSans-Bold.ttf'), 'QuarryWeightBold');

afterAll(async () => {
  await releaseOcrWorkers();
});

const BODY = [
  'The survey covered every district of the region in spring.',
  'Each household answered the same twelve questions in turn.',
  'Answers were checked twice before they were entered here.',
  'Most districts returned their forms within three weeks.',
  'Two districts needed a second visit to finish the count.',
  'The results below are given for the region as a whole.',
];

describe('boldLines', () => {
  it('finds the heading set in bold among lines of regular running text, read by OCR', { timeout: 120_000 }, async () => {
    const { createCanvas } = await loadCanvas();
    const canvas = createCanvas(1400, 700);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 1400, 700);
    ctx.fillStyle = '#000';
    ctx.font = '34px QuarryWeightBold';
    ctx.fillText('Results of the household survey', 80, 80);
    ctx.font = '34px QuarryWeightRegular';
    BODY.forEach((line, i) => ctx.fillText(line, 80, 170 + 70 * i));
    const png = canvas.toBuffer('image/png');
    const { data } = ctx.getImageData(0, 0, 1400, 700);
    const grey = new Uint8Array(1400 * 700);
    for (let i = 0; i < grey.length; i++) grey[i] = data[4 * i]!;
    const ocr = await ocrImage(new Uint8Array(png), { languages: ['eng'] });
    expect(ocr.lines).toHaveLength(7);
    const bold = boldLines(ocr.lines, grey, 1400, 700);
    expect([...bold].map((l) => l.text.trim())).toEqual(['Results of the household survey']);
    // Without enough running text to compare with, no line is called bold.
    expect(boldLines(ocr.lines.slice(0, 3), grey, 1400, 700).size).toBe(0);
  });
});
