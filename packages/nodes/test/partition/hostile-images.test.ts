/**
 * Hostile image files, each partitioned in a child process of its own (`hostile-probe.ts`): every
 * one ends in its coded error (the e-mail in its body, its corrupt attachments logged) and the child
 * exits normally, never on a signal, within a memory bound. Before the header check and the libvips
 * decoder these crashed the process (SIGSEGV, SIGILL) or ran for minutes at gigabytes. Wall-clock
 * bounds are in `hostile-images.timing.test.ts`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/partition/limits.js';
import { blackPng, HOSTILE_GENERATORS } from '../support/hostile-files.js';
import { probeFile } from '../support/hostile-probe.js';

/** Each hostile image and the error code partitioning it gives. */
const HOSTILE_IMAGE_CODES: Readonly<Record<string, string>> = {
  'huge-header.png': 'FILE_TOO_LARGE',
  'complete-huge.png': 'FILE_TOO_LARGE',
  'corrupt-palette.png': 'FILE_UNREADABLE',
  'bad-huffman.jpg': 'FILE_UNREADABLE',
  'truncated.jpg': 'FILE_UNREADABLE',
  'huge-header.tiff': 'FILE_TOO_LARGE',
  'huge-second-page.tiff': 'FILE_TOO_LARGE',
  'huge-frame.gif': 'FILE_TOO_LARGE',
  'huge-header.webp': 'FILE_TOO_LARGE',
  'huge-header.bmp': 'FILE_TOO_LARGE',
};

// Measured: 128-148 MB for each image child, 189 MB for the e-mail (most of it Node, tsx and the
// modules); a decoder that allocated what these headers claim would need gigabytes.
const PEAK_RSS_MB = 400;
const PROBE = { strategy: 'fast', timeoutMs: 60_000, heapMb: 1024 } as const;

const dir = mkdtempSync(path.join(tmpdir(), 'hostile-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeHostile(name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, HOSTILE_GENERATORS[name]!().bytes);
  return file;
}

describe('hostile images, each partitioned in a child process', () => {
  it.each(Object.entries(HOSTILE_IMAGE_CODES))(
    '%s gives %s and the child exits normally',
    async (name, code) => {
      const r = await probeFile(writeHostile(name), PROBE);
      expect(r.outcome, `${r.detail} ${r.stderrLine ?? ''}`).toBe('error');
      expect(r.detail).toMatch(new RegExp(`^${code}: ${name.replace('.', '\\.')}: `));
      if (code === 'FILE_TOO_LARGE') expect(r.detail).toContain('QUARRY_MAX_IMAGE_PIXELS');
      expect(r.peakRssMb).toBeLessThan(PEAK_RSS_MB);
    },
    120_000,
  );

  it('corrupt-images.eml keeps its body and the child exits normally', async () => {
    const r = await probeFile(writeHostile('corrupt-images.eml'), PROBE);
    expect(r.outcome, `${r.detail} ${r.stderrLine ?? ''}`).toBe('ok');
    expect(r.detail).toBe('1 elements');
    expect(r.peakRssMb).toBeLessThan(PEAK_RSS_MB);
  }, 120_000);
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const decodeModule = path.join(root, 'packages/nodes/src/partition/formats/image/decode.ts');
const partitionModule = path.join(root, 'packages/nodes/src/partition/partition-file.ts');

// Measured: 516-531 MB for a PNG, JPEG or TIFF of 10,000 x 9,999 pixels (the decoded RGBA is
// 400 MB); the target is about 1 GB for one partitioning process.
const DECODE_PEAK_RSS_MB = 1024;

describe('an image just under the pixel limit', () => {
  it('decodes in a child process within about 1 GB of resident memory', () => {
    const width = 10_000;
    const height = Math.floor(DEFAULT_LIMITS.maxImagePixels / width) - 1;
    const file = path.join(dir, 'under-limit.png');
    writeFileSync(file, blackPng(width, height));
    const script = `
      import { readFileSync } from 'node:fs';
      const { decodeImagePages } = await import(${JSON.stringify(decodeModule)});
      const sizes = [];
      for await (const page of decodeImagePages(new Uint8Array(readFileSync(process.argv[1])), 'under-limit.png')) sizes.push(page.width + 'x' + page.height);
      console.log(JSON.stringify({ sizes, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));`;
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script, file], {
      cwd: root,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, QUARRY_MAX_IMAGE_PIXELS: '' },
    });
    expect(run.signal, run.stderr).toBeNull();
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { sizes: string[]; maxRssMb: number };
    expect(out.sizes).toEqual([`${width}x${height}`]);
    expect(out.maxRssMb).toBeLessThan(DECODE_PEAK_RSS_MB);
  }, 300_000);
});

// Measured: 1.06 GB with the page shrunk to 20 M pixels for Tesseract, 2.18 GB before (read whole).
const OCR_PEAK_RSS_MB = 1300;

describe('a page just under the pixel limit, OCR’d', () => {
  it('is read shrunk, in a child process within about 1 GB, every line of its text found', () => {
    const file = path.join(dir, 'under-limit-text.png');
    const script = `
      import { readFileSync, writeFileSync } from 'node:fs';
      const { createCanvas, GlobalFonts } = await import('@napi-rs/canvas');
      const { createRequire } = await import('node:module');
      // The font pdfjs-dist ships: a system 'sans-serif' may resolve to a symbol font (LibreOffice's OpenSymbol).
      const pdfjsRoot = createRequire(process.cwd() + '/').resolve('pdfjs-dist/package.json').replace(/package.json$/, '');
      GlobalFonts.registerFromPath(pdfjsRoot + 'standard_fonts/LiberationSans-Regular.ttf', 'QuarryTestSans');
      const canvas = createCanvas(10_000, 9_999);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, 10_000, 9_999);
      ctx.fillStyle = '#000';
      ctx.font = '120px QuarryTestSans';
      for (let i = 0; i < 6; i++) ctx.fillText('Line ' + (i + 1) + ' of the quarry survey report for granite', 400, 800 + i * 1400);
      writeFileSync(process.argv[1], canvas.toBuffer('image/png'));`;
    const made = spawnSync(process.execPath, ['--input-type=module', '-e', script, file], {
      cwd: path.join(root, 'packages/nodes'),
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(made.status, made.stderr).toBe(0);
    const partition = `
      import { readFileSync } from 'node:fs';
      const { partitionFile } = await import(${JSON.stringify(partitionModule)});
      const elements = await partitionFile(new Uint8Array(readFileSync(process.argv[2])), { filename: 'page.png', strategy: 'hi_res', ocr_languages: ['eng'] });
      console.log(JSON.stringify({ texts: elements.map((e) => e.text), maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));`;
    // A script file, not --eval: Tesseract's worker thread inherits the flags, and --input-type with them.
    const runner = path.join(dir, 'ocr-page.mjs');
    writeFileSync(runner, partition);
    const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', runner, file], { cwd: root, encoding: 'utf8', timeout: 240_000 });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { texts: string[]; maxRssMb: number };
    expect(out.texts).toEqual(Array.from({ length: 6 }, (_, i) => `Line ${i + 1} of the quarry survey report for granite`));
    expect(out.maxRssMb).toBeLessThan(OCR_PEAK_RSS_MB);
  }, 300_000);
});
