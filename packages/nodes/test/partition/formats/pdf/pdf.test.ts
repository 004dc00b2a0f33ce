import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isQuarryError, type Element } from '@quarry/core';
import { BUILTIN_FORMATS } from '../../../../src/partition/formats/index.js';
import { loadFormat } from '../../../../src/partition/formats/load-format.js';
import { pdfPartitioner } from '../../../../src/partition/formats/pdf/index.js';
import { stopPageWorker } from '../../../../src/partition/formats/pdf/page-worker-host.js';
import { releaseOcrWorkers } from '../../../../src/partition/ocr.js';
import type { FormatPartitionOptions } from '../../../../src/partition/types.js';
import { formatOptions } from '../../format-options.js';
import { makePdf, textLines, type FixturePage } from './fixture.js';

afterAll(async () => {
  await releaseOcrWorkers();
  await stopPageWorker();
});

function opts(overrides: Partial<FormatPartitionOptions> = {}): FormatPartitionOptions {
  return formatOptions({ strategy: 'fast', filename: 'doc.pdf', filetype: 'application/pdf', ...overrides });
}

async function partition(bytes: Uint8Array, overrides: Partial<FormatPartitionOptions> = {}): Promise<Element[]> {
  return pdfPartitioner.partition(bytes, opts(overrides));
}

async function errorOf(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

const report: FixturePage = {
  texts: [
    { x: 72, y: 760, size: 9, text: 'ACME Corporation Annual Report' },
    { x: 72, y: 680, size: 18, text: 'Results of the Year', bold: true },
    ...textLines(
      [
        'The company increased its revenue in every region and the board ap-',
        'proved a new dividend policy after a long discussion of the options',
        'that were presented by the finance committee.',
      ],
      72,
      11,
      656,
    ),
    { x: 72, y: 610, size: 11, text: '\u2022 Revenue grew by twelve percent over the year' },
    { x: 72, y: 596, size: 11, text: '\u2022 Costs fell in the second half of the year' },
    { x: 300, y: 40, size: 9, text: '1' },
  ],
};

function reportPage(n: number): FixturePage {
  return { texts: report.texts!.map((t) => (t.text === '1' ? { ...t, text: String(n) } : t)) };
}

describe('pdfPartitioner registration', () => {
  it('is listed with the PDF MIME type and extension', async () => {
    const pdf = BUILTIN_FORMATS.find((f) => f.name === 'pdf')!;
    expect(pdf.mimeTypes[0]).toBe('application/pdf');
    expect(pdf.extensions).toEqual(['.pdf']);
    expect((await loadFormat(pdf)).partition).toBe(pdfPartitioner.partition);
  });
});

describe('pdfPartitioner fast', () => {
  it('classifies blocks, joins hyphenated lines and sets page numbers', async () => {
    const els = await partition(makePdf([reportPage(1), reportPage(2)]));
    const page1 = els.filter((e) => e.metadata.page_number === 1);
    expect(page1.map((e) => [e.type, e.text])).toEqual([
      ['Header', 'ACME Corporation Annual Report'],
      ['Title', 'Results of the Year'],
      [
        'NarrativeText',
        'The company increased its revenue in every region and the board approved a new dividend policy after a long discussion of the options that were presented by the finance committee.',
      ],
      ['ListItem', 'Revenue grew by twelve percent over the year'],
      ['ListItem', 'Costs fell in the second half of the year'],
      ['PageNumber', '1'],
    ]);
    expect(els.filter((e) => e.metadata.page_number === 2).map((e) => e.type)).toEqual(page1.map((e) => e.type));
    expect(new Set(els.map((e) => e.element_id)).size).toBe(els.length);
  });

  it('puts PageBreak elements between pages only when asked', async () => {
    const bytes = makePdf([reportPage(1), reportPage(2), reportPage(3)]);
    expect((await partition(bytes)).some((e) => e.type === 'PageBreak')).toBe(false);
    const els = await partition(bytes, { include_page_breaks: true });
    const breaks = els.flatMap((e, i) => (e.type === 'PageBreak' ? [i] : []));
    expect(breaks).toHaveLength(2);
    for (const i of breaks) {
      expect(els[i - 1]!.metadata.page_number).toBeLessThan(els[i + 1]!.metadata.page_number!);
      expect(els[i]!.text).toBe('');
    }
  });

  it('gives coordinates in points, origin top-left, when asked', async () => {
    const bytes = makePdf([{ texts: [{ x: 100, y: 700, size: 12, text: 'Positioned text' }] }]);
    expect((await partition(bytes))[0]!.metadata.coordinates).toBeUndefined();
    const [el] = await partition(bytes, { coordinates: true });
    const c = el!.metadata.coordinates!;
    expect(c.system).toBe('PixelSpace');
    expect([c.layout_width, c.layout_height]).toEqual([612, 792]);
    const [tl, bl, br, tr] = c.points;
    expect(tl![0]).toBeCloseTo(100, 0);
    // Baseline at 792 - 700 = 92; Helvetica's ascent puts the top about 9 points above it.
    expect(tl![1]).toBeGreaterThan(80);
    expect(tl![1]).toBeLessThan(92);
    expect(bl![1]).toBeGreaterThan(92);
    expect(br![0]).toBeGreaterThan(tl![0] + 60);
    expect(tr).toEqual([br![0], tl![1]]);
  });

  it('reads a two-column page column by column', async () => {
    const left = ['Left column first line of text', 'left column second line here', 'left column third line ends.'];
    const right = ['Right column first line of text', 'right column second line here', 'right column third line ends.'];
    const texts = left.flatMap((t, i) => [
      { x: 72, y: 700 - i * 14, size: 11, text: t },
      { x: 320, y: 700 - i * 14, size: 11, text: right[i]! },
    ]);
    const els = await partition(makePdf([{ texts }]));
    expect(els.map((e) => e.text)).toEqual([left.join(' '), right.join(' ')]);
  });

  it('returns no elements for a page without a text layer', async () => {
    expect(await partition(makePdf([{ images: [{ x: 0, y: 0, width: 612, height: 792 }] }]))).toEqual([]);
  });
});

describe('pdfPartitioner errors', () => {
  it('opens a file encrypted with an owner password only', async () => {
    const bytes = makePdf([reportPage(1)], { encrypt: { user: '', owner: 'owner-secret' } });
    const els = await partition(bytes);
    expect(els.map((e) => e.text)).toContain('Results of the Year');
  });

  it('fails with PDF_PASSWORD_REQUIRED when a user password is needed', async () => {
    const bytes = makePdf([reportPage(1)], { encrypt: { user: 'user-secret', owner: 'owner-secret' } });
    for (const strategy of ['fast', 'hi_res'] as const) {
      const e = await errorOf(partition(bytes, { strategy }));
      expect(isQuarryError(e) && e.code).toBe('PDF_PASSWORD_REQUIRED');
    }
  });

  it('refuses a PDF of more pages than QUARRY_MAX_PDF_PAGES before reading any page, with every strategy', async () => {
    const bytes = makePdf([reportPage(1), reportPage(2), reportPage(3)]);
    const before = process.env.QUARRY_MAX_PDF_PAGES;
    process.env.QUARRY_MAX_PDF_PAGES = '2';
    try {
      for (const strategy of ['fast', 'hi_res'] as const) {
        const e = await errorOf(partition(bytes, { strategy }));
        expect(isQuarryError(e) && e.code).toBe('DOCUMENT_TOO_COMPLEX');
        expect((e as Error).message).toBe('doc.pdf: 3 pages, over the limit of 2 pages (set QUARRY_MAX_PDF_PAGES to raise it)');
        expect(isQuarryError(e) && e.details).toEqual({ filename: 'doc.pdf', limit: 'QUARRY_MAX_PDF_PAGES', limit_value: 2, found: 3 });
      }
      process.env.QUARRY_MAX_PDF_PAGES = '3';
      expect((await partition(bytes)).length).toBeGreaterThan(0);
    } finally {
      if (before === undefined) delete process.env.QUARRY_MAX_PDF_PAGES;
      else process.env.QUARRY_MAX_PDF_PAGES = before;
    }
  });

  it('fails with FILE_UNREADABLE for bytes that are not a PDF', async () => {
    const e = await errorOf(partition(new TextEncoder().encode('this is not a pdf at all')));
    expect(isQuarryError(e) && e.code).toBe('FILE_UNREADABLE');
  });

  it('fails with FILE_UNREADABLE for a PDF header followed by garbage', async () => {
    const garbage = new Uint8Array(4000).map((_, i) => (i * 7919 + 13) % 251);
    const bytes = new Uint8Array([...new TextEncoder().encode('%PDF-1.4\n'), ...garbage]);
    for (const strategy of ['fast', 'hi_res'] as const) {
      const e = await errorOf(partition(bytes, { strategy }));
      expect(isQuarryError(e) && e.code).toBe('FILE_UNREADABLE');
    }
  });

  it('recovers a file whose xref offset is wrong', async () => {
    const text = Buffer.from(makePdf([reportPage(1)])).toString('latin1');
    const broken = text.replace(/startxref\n\d+/, 'startxref\n999999');
    const els = await partition(new Uint8Array(Buffer.from(broken, 'latin1')));
    expect(els.map((e) => e.text)).toContain('Results of the Year');
  });

  it('fails with JOB_ABORTED when the signal is aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await errorOf(partition(makePdf([reportPage(1)]), { signal: ac.signal }));
    expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
  });

  it('stops when the signal aborts while the file is opening or being read', async () => {
    const bytes = makePdf(Array.from({ length: 300 }, (_, i) => reportPage(i + 1)));
    for (const strategy of ['fast', 'hi_res'] as const) {
      const opening = new AbortController();
      const p1 = partition(bytes, { signal: opening.signal, strategy });
      queueMicrotask(() => opening.abort());
      const e1 = await errorOf(p1);
      expect(isQuarryError(e1) && e1.code).toBe('JOB_ABORTED');
      const reading = new AbortController();
      const p2 = partition(bytes, { signal: reading.signal, strategy });
      setTimeout(() => reading.abort(), 0);
      const e2 = await errorOf(p2);
      expect(isQuarryError(e2) && e2.code).toBe('JOB_ABORTED');
    }
  });
});

describe('pdfPartitioner hi_res', () => {
  const figure: FixturePage = {
    texts: [
      { x: 72, y: 720, size: 16, text: 'Quarterly Figures', bold: true },
      ...textLines(['The chart below shows the results of the quarter for each of the regions.'], 72, 11, 690),
      { x: 72, y: 430, size: 10, text: 'Figure 1. Revenue by region' },
      ...[
        ['Region', 'Q1', 'Q2', 'Q3'],
        ['North', '10.5', '11.2', '12.9'],
        ['South', '8.1', '8.4', '9.0'],
        ['West', '5.5', '6.1', '6.3'],
      ].flatMap((row, r) => row.map((cell, c) => ({ x: 72 + c * 110, y: 380 - r * 16, size: 10, text: cell }))),
    ],
    images: [{ x: 72, y: 450, width: 300, height: 200 }],
  };

  it('adds Image and Table elements, with table HTML when asked', async () => {
    const els = await partition(makePdf([figure]), { strategy: 'hi_res', infer_table_structure: true });
    expect(els.map((e) => e.type)).toEqual(['Title', 'NarrativeText', 'Image', 'FigureCaption', 'Table']);
    const table = els.find((e) => e.type === 'Table')!;
    expect(table.text).toBe('Region Q1 Q2 Q3 North 10.5 11.2 12.9 South 8.1 8.4 9.0 West 5.5 6.1 6.3');
    expect(table.metadata.text_as_html).toBe(
      '<table><tr><td>Region</td><td>Q1</td><td>Q2</td><td>Q3</td></tr><tr><td>North</td><td>10.5</td><td>11.2</td><td>12.9</td></tr>' +
        '<tr><td>South</td><td>8.1</td><td>8.4</td><td>9.0</td></tr><tr><td>West</td><td>5.5</td><td>6.1</td><td>6.3</td></tr></table>',
    );
    const plain = await partition(makePdf([figure]), { strategy: 'hi_res' });
    expect(plain.find((e) => e.type === 'Table')!.metadata.text_as_html).toBeUndefined();
  });

  it('uses 200 dpi pixel coordinates and crops PNG images of the requested types', async () => {
    const els = await partition(makePdf([figure]), { strategy: 'hi_res', coordinates: true, extract_image_block_types: ['Image', 'table'] });
    const image = els.find((e) => e.type === 'Image')!;
    const c = image.metadata.coordinates!;
    expect([c.layout_width, c.layout_height]).toEqual([1700, 2200]);
    // The image spans x 72..372 and y 792-650=142..342 points: times 200/72.
    expect(c.points[0]![0]).toBeCloseTo(200, 0);
    expect(c.points[0]![1]).toBeCloseTo(394.4, 0);
    expect(c.points[2]![0]).toBeCloseTo(1033.3, 0);
    expect(c.points[2]![1]).toBeCloseTo(950, 0);
    for (const type of ['Image', 'Table']) {
      const el = els.find((e) => e.type === type)!;
      expect(el.metadata.image_mime_type).toBe('image/png');
      const png = Buffer.from(el.metadata.image_base64!, 'base64');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    // The crop of the image region (300 x 200 points, 2 points of margin) at 200 dpi.
    const png = Buffer.from(image.metadata.image_base64!, 'base64');
    expect(png.readUInt32BE(16)).toBeCloseTo(Math.ceil(304 * (200 / 72)), -1);
    expect(els.find((e) => e.type === 'Title')!.metadata.image_base64).toBeUndefined();
  });
});

describe('pdfPartitioner hi_res with a page filter', () => {
  it('reads only the pages asked for, and fails only when none of them can be read', async () => {
    const bytes = makePdf([reportPage(1), reportPage(2), reportPage(3)]);
    const all = await partition(bytes, { strategy: 'hi_res' });
    expect(new Set(all.map((e) => e.metadata.page_number))).toEqual(new Set([1, 2, 3]));
    const some = await partition(bytes, { strategy: 'hi_res', pages: new Set([2, 3]) });
    expect(new Set(some.map((e) => e.metadata.page_number))).toEqual(new Set([2, 3]));
    expect(some.map((e) => e.text)).toEqual(all.filter((e) => e.metadata.page_number !== 1).map((e) => e.text));
    expect(await partition(bytes, { strategy: 'hi_res', pages: new Set([9]) })).toEqual([]);
  });
});

describe('qpdf-made encrypted files', () => {
  let qpdf = false;
  try {
    execFileSync('qpdf', ['--version'], { stdio: 'ignore' });
    qpdf = true;
  } catch {
    // qpdf is optional: these cases run only where it is installed.
  }
  it.skipIf(!qpdf)('opens an AES-256 file with an owner password and refuses one with a user password', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-pdf-'));
    try {
      const plain = path.join(dir, 'plain.pdf');
      writeFileSync(plain, makePdf([reportPage(1)]));
      const owner = path.join(dir, 'owner.pdf');
      const user = path.join(dir, 'user.pdf');
      execFileSync('qpdf', ['--encrypt', '', 'owner-pw', '256', '--', plain, owner]);
      execFileSync('qpdf', ['--encrypt', 'user-pw', 'owner-pw', '256', '--', plain, user]);
      const els = await partition(new Uint8Array(readFileSync(owner)));
      expect(els.map((e) => e.text)).toContain('Results of the Year');
      const e = await errorOf(partition(new Uint8Array(readFileSync(user))));
      expect(isQuarryError(e) && e.code).toBe('PDF_PASSWORD_REQUIRED');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
