import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, GlobalFonts, type Canvas } from '@napi-rs/canvas';
import UTIF from 'utif2';
import { afterAll, describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { imagePartitioner } from '../../../../src/partition/formats/image/index.js';
import { releaseOcrWorkers } from '../../../../src/partition/ocr.js';
import { compareToReference, corpusDir, corpusDoc, hasCorpus, makeOptions, partitionError, tokenF1 } from '../helpers.js';

afterAll(() => releaseOcrWorkers());

/** A page image with a heading, a paragraph and a three-column table, drawn with a system font. */
function drawPage(): { canvas: Canvas; width: number; height: number } {
  const width = 1600;
  const height = 900;
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000000';
  ctx.font = 'bold 56px DejaVu Sans';
  ctx.fillText('Quarterly Report', 100, 130);
  ctx.font = '34px DejaVu Sans';
  ctx.fillText('The committee reviewed the budget and approved the', 100, 250);
  ctx.fillText('plan for the next fiscal year without any changes.', 100, 300);
  const rows = [
    ['Region', 'Units', 'Revenue'],
    ['North', '12', '1500'],
    ['South', '7', '700'],
    ['West', '31', '2900'],
  ];
  rows.forEach((row, r) => row.forEach((cell, c) => ctx.fillText(cell, 100 + c * 500, 480 + r * 80)));
  return { canvas, width, height };
}

const hasFonts = GlobalFonts.families.length > 0;

/** An uncompressed little-endian RGB TIFF with one image file directory per page. */
function multiPageTiff(pages: Array<{ width: number; height: number; rgba: Uint8Array }>): Uint8Array {
  const chunks: Uint8Array[] = [];
  let offset = 8;
  const header = new Uint8Array(8);
  new DataView(header.buffer).setUint32(0, 0x002a4949, true);
  chunks.push(header);
  const ifdOffsets: number[] = [];
  const patches: Array<{ view: DataView; at: number }> = [];
  for (const page of pages) {
    const rgb = new Uint8Array(page.width * page.height * 3);
    for (let i = 0, j = 0; i < page.rgba.length; i += 4, j += 3) rgb.set(page.rgba.subarray(i, i + 3), j);
    const pixelsAt = offset;
    chunks.push(rgb);
    offset += rgb.length;
    const bitsAt = offset;
    const bits = new Uint8Array(6);
    [8, 8, 8].forEach((b, i) => new DataView(bits.buffer).setUint16(i * 2, b, true));
    chunks.push(bits);
    offset += 6;
    const tags: Array<[number, number, number, number]> = [
      [256, 4, 1, page.width],
      [257, 4, 1, page.height],
      [258, 3, 3, bitsAt],
      [259, 3, 1, 1],
      [262, 3, 1, 2],
      [273, 4, 1, pixelsAt],
      [277, 3, 1, 3],
      [278, 4, 1, page.height],
      [279, 4, 1, rgb.length],
    ];
    const ifd = new Uint8Array(2 + tags.length * 12 + 4);
    const view = new DataView(ifd.buffer);
    view.setUint16(0, tags.length, true);
    tags.forEach(([tag, type, count, value], i) => {
      view.setUint16(2 + i * 12, tag, true);
      view.setUint16(4 + i * 12, type, true);
      view.setUint32(6 + i * 12, count, true);
      if (type === 3 && count === 1) view.setUint16(10 + i * 12, value, true);
      else view.setUint32(10 + i * 12, value, true);
    });
    ifdOffsets.push(offset);
    patches.push({ view, at: 2 + tags.length * 12 });
    chunks.push(ifd);
    offset += ifd.length;
  }
  new DataView(header.buffer).setUint32(4, ifdOffsets[0]!, true);
  patches.forEach((p, i) => p.view.setUint32(p.at, ifdOffsets[i + 1] ?? 0, true));
  const out = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

describe.skipIf(!hasFonts)('imagePartitioner (needs a system font to draw its fixtures)', () => {
  it('OCRs a page into a title, narrative text and a table with text_as_html and coordinates', async () => {
    const { canvas, width, height } = drawPage();
    const png = new Uint8Array(canvas.toBuffer('image/png'));
    const els = await imagePartitioner.partition(png, makeOptions('page.png', { infer_table_structure: true, coordinates: true }));
    expect(els.map((e) => e.type)).toEqual(['Title', 'NarrativeText', 'Table']);
    expect(els[0]!.text).toBe('Quarterly Report');
    expect(els[1]!.text).toBe('The committee reviewed the budget and approved the plan for the next fiscal year without any changes.');
    expect(els[2]!.text).toBe('Region Units Revenue North 12 1500 South 7 700 West 31 2900');
    expect(els[2]!.metadata.text_as_html).toBe(
      '<table><tr><td>Region</td><td>Units</td><td>Revenue</td></tr><tr><td>North</td><td>12</td><td>1500</td></tr><tr><td>South</td><td>7</td><td>700</td></tr><tr><td>West</td><td>31</td><td>2900</td></tr></table>',
    );
    for (const el of els) {
      expect(el.metadata.page_number).toBe(1);
      const c = el.metadata.coordinates!;
      expect(c).toMatchObject({ system: 'PixelSpace', layout_width: width, layout_height: height });
      // Boxes are in the original image's pixels, even though small images are enlarged for OCR.
      for (const [x, y] of c.points) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(width);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(height);
      }
    }
    expect(els[0]!.metadata.coordinates!.points[0]![1]).toBeLessThan(els[2]!.metadata.coordinates!.points[0]![1]);
  });

  it('reads TIFF without text_as_html unless asked', async () => {
    const { canvas, width, height } = drawPage();
    const rgba = new Uint8Array(canvas.getContext('2d').getImageData(0, 0, width, height).data);
    const single = new Uint8Array(UTIF.encodeImage(rgba, width, height));
    const els = await imagePartitioner.partition(single, makeOptions('page.tiff'));
    expect(els.map((e) => e.type)).toEqual(['Title', 'NarrativeText', 'Table']);
    expect(els[2]!.metadata.text_as_html).toBeUndefined();
    expect(els[2]!.metadata.coordinates).toBeUndefined();
  });

  it('gives each page of a multi-page TIFF its page_number, with PageBreaks when asked', async () => {
    const pages = ['First Page Heading', 'Second Page Heading'].map((title) => {
      const c = createCanvas(1400, 300);
      const ctx = c.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, 1400, 300);
      ctx.fillStyle = '#000000';
      ctx.font = 'bold 56px DejaVu Sans';
      ctx.fillText(title, 100, 150);
      return { width: 1400, height: 300, rgba: new Uint8Array(ctx.getImageData(0, 0, 1400, 300).data) };
    });
    const els = await imagePartitioner.partition(multiPageTiff(pages), makeOptions('scan.tif', { include_page_breaks: true }));
    expect(els.map((e) => [e.type, e.text, e.metadata.page_number])).toEqual([
      ['Title', 'First Page Heading', 1],
      ['PageBreak', '', 1],
      ['Title', 'Second Page Heading', 2],
    ]);
  });

  it('fails with FILE_UNREADABLE naming the file for bytes that are not an image', async () => {
    const err = await partitionError(imagePartitioner, new TextEncoder().encode('not an image at all'), makeOptions('photo.png'));
    expect(isQuarryError(err) && err.code).toBe('FILE_UNREADABLE');
    expect((err as Error).message).toContain('photo.png');
  });
});

describe.skipIf(!hasCorpus)('imagePartitioner on the corpus (skipped without /work/shared/corpus)', () => {
  it('table-multi-row-column-cells.png becomes a Table', async () => {
    const els = await imagePartitioner.partition(
      corpusDoc('table-multi-row-column-cells.png'),
      makeOptions('table-multi-row-column-cells.png', { infer_table_structure: true }),
    );
    const { f1 } = compareToReference('table-multi-row-column-cells.png', els);
    const table = els.find((e) => e.type === 'Table' && e.metadata.text_as_html?.startsWith('<table>'));
    expect(table).toBeDefined();
    // Every body row, including those whose text sits close to a grid line (Tesseract dropped
    // them before the grid was painted out).
    for (const row of ['Blind 5 1 4 34.5%, n=1 1199 sec, n=1', 'Dexterity 5 4 1 98.3%, n=4 1672.1 sec, n=4', 'Mobility 3 3 0 95.4%, n=3 1416 sec, n=3']) {
      expect(table?.text).toContain(row);
    }
    expect(f1).toBeGreaterThan(0.85);
  });

  it('layout-parser-paper-with-table.jpg gives the title, caption, table and body paragraphs', async () => {
    const els = await imagePartitioner.partition(
      corpusDoc('layout-parser-paper-with-table.jpg'),
      makeOptions('layout-parser-paper-with-table.jpg', { infer_table_structure: true }),
    );
    const { f1, types } = compareToReference('layout-parser-paper-with-table.jpg', els);
    const gold = readFileSync(path.join(corpusDir, 'expected', 'layout-parser-paper-with-table.jpg.gold.txt'), 'utf8');
    const goldF1 = tokenF1(els.map((e) => e.text).join(' '), gold);
    console.log(`[corpus] layout-parser-paper-with-table.jpg gold.txt token F1 ${goldF1.toFixed(3)}`);
    expect(f1).toBeGreaterThan(0.9);
    expect(goldF1).toBeGreaterThan(0.8);
    expect(types).toBeGreaterThan(0.3);
    expect(els.map((e) => e.type)).toEqual(expect.arrayContaining(['Title', 'FigureCaption', 'Table', 'NarrativeText']));
  });
});
