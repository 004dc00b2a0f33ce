import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { isQuarryError, sleep } from '@quarry/core';
import { ocrImage, releaseOcrWorkers, resolveOcrLanguages } from '../../src/partition/ocr.js';
import { textImage } from '../support/text-image.js';

afterAll(() => releaseOcrWorkers());

describe('resolveOcrLanguages', () => {
  it('maps ISO 639-1 codes and "+" lists onto installed Tesseract data', () => {
    const { found, missing } = resolveOcrLanguages(['en', 'eng+zzz']);
    expect(found.map((f) => f.code)).toEqual(['eng']);
    expect(found[0]!.dir).toMatch(/@tesseract\.js-data[\\/]eng[\\/]4\.0\.0(_best_int)?$/);
    expect(missing).toEqual(['zzz']);
  });

  it('names the Tesseract model of an ISO 639-1 code that is not installed (Chinese: the simplified model)', () => {
    expect(resolveOcrLanguages(['ga', 'zh', 'mn']).missing).toEqual(['gle', 'chi_sim', 'mon']);
  });

  it('finds a language package the application running quarry installed (the working directory), not only its own', async () => {
    const app = await mkdtemp(path.join(tmpdir(), 'quarry-host-app-'));
    try {
      const pkg = path.join(app, 'node_modules', '@tesseract.js-data', 'xyz');
      await mkdir(path.join(pkg, '4.0.0_best_int'), { recursive: true });
      await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name: '@tesseract.js-data/xyz', version: '1.0.0' }));
      await writeFile(path.join(pkg, '4.0.0_best_int', 'xyz.traineddata.gz'), gzipSync(Buffer.from('data')));
      // A process whose working directory is the app, as when the app runs quarry.
      const source = pathToFileURL(path.resolve(import.meta.dirname, '../../src/partition/ocr-languages.ts')).href;
      const script = `import { resolveOcrLanguages } from ${JSON.stringify(source)}; process.stdout.write(JSON.stringify(resolveOcrLanguages(['xyz', 'eng'])));`;
      const tsx = pathToFileURL(require.resolve('tsx/esm')).href;
      const r = spawnSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      const { found, missing } = JSON.parse(r.stdout) as ReturnType<typeof resolveOcrLanguages>;
      expect(found.map((f) => f.code)).toEqual(['xyz', 'eng']);
      expect(found[0]!.dir).toBe(path.join(app, 'node_modules', '@tesseract.js-data', 'xyz', '4.0.0_best_int'));
      expect(missing).toEqual([]);
    } finally {
      await rm(app, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('ocrImage', () => {
  it('finds the words, lines and blocks of an image with their boxes', async () => {
    const png = await textImage(['Quarry reads scanned pages', 'with Tesseract offline']);
    const r = await ocrImage(png, { languages: ['eng'] });
    expect(r.text).toContain('Quarry reads scanned pages');
    expect(r.lines.map((l) => l.text.trim())).toEqual(['Quarry reads scanned pages', 'with Tesseract offline']);
    expect(r.words.map((w) => w.text)).toEqual(['Quarry', 'reads', 'scanned', 'pages', 'with', 'Tesseract', 'offline']);
    expect(r.blocks.length).toBeGreaterThan(0);
    expect(r.blocks[0]!.paragraphs[0]!.lines[0]!.words[0]!.text).toBe('Quarry');
    const [first, second] = r.lines;
    // The first line's text starts at x = 40 and sits above the second line.
    expect(first!.bbox.x0).toBeGreaterThanOrEqual(38);
    expect(first!.bbox.x0).toBeLessThan(50);
    expect(first!.bbox.y1).toBeLessThanOrEqual(second!.bbox.y0 + 5);
    expect(first!.baseline).toBeGreaterThan(first!.bbox.y0);
    expect(first!.rowHeight).toBeGreaterThan(30);
    expect(r.words.every((w) => w.confidence > 50 && w.bbox.x1 > w.bbox.x0)).toBe(true);
  });

  it('runs recognitions concurrently on the pool and keeps their results apart', async () => {
    const [a, b, c] = await Promise.all([
      ocrImage(await textImage(['First image text'])),
      ocrImage(await textImage(['Second image words'])),
      ocrImage(await textImage(['Third picture here'])),
    ]);
    expect([a!.text.trim(), b!.text.trim(), c!.text.trim()]).toEqual(['First image text', 'Second image words', 'Third picture here']);
  });

  it('fails with OCR_LANGUAGE_UNAVAILABLE when no requested language is installed', async () => {
    const e = await ocrImage(await textImage(['x']), { languages: ['zzz'] }).catch((err: unknown) => err);
    expect(isQuarryError(e) && e.code).toBe('OCR_LANGUAGE_UNAVAILABLE');
  });

  it('warns, naming the package to install, and goes on with the installed languages when some are missing', async () => {
    const r = await ocrImage(await textImage(['Mixed languages']), { languages: ['eng', 'qqq'] });
    expect(r.text.trim()).toBe('Mixed languages');
    expect(r.languages).toEqual(['eng']);
    expect(r.warnings).toEqual(['no OCR data is installed for qqq; read with eng instead. Install @tesseract.js-data/qqq beside quarry to read it']);
  });

  it('fails with JOB_ABORTED, without waiting for the recognition, when the signal aborts', async () => {
    const png = await textImage(Array.from({ length: 12 }, (_, i) => `Line number ${i} of a long page to read`));
    const before = new AbortController();
    before.abort();
    const e1 = await ocrImage(png, { signal: before.signal }).catch((err: unknown) => err);
    expect(isQuarryError(e1) && e1.code).toBe('JOB_ABORTED');
    const during = new AbortController();
    const p = ocrImage(png, { signal: during.signal });
    setTimeout(() => during.abort(), 20);
    const e2 = await p.catch((err: unknown) => err);
    expect(isQuarryError(e2) && e2.code).toBe('JOB_ABORTED');
    // The pool still works afterwards.
    expect((await ocrImage(await textImage(['Still working']))).text.trim()).toBe('Still working');
  });

  it('ends recognitions with JOB_ABORTED when the workers are released, started or still starting', async () => {
    const png = await textImage(Array.from({ length: 12 }, (_, i) => `Another line ${i} of a long page to read`));
    for (const wait of [0, 50]) {
      const running = ocrImage(png);
      await sleep(wait);
      await releaseOcrWorkers();
      const e = await running.catch((err: unknown) => err);
      expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
    }
    expect((await ocrImage(await textImage(['Back again']))).text.trim()).toBe('Back again');
  });

  it('sends nothing to a worker released while a recognition was being handed it (JOB_ABORTED, no unhandled rejection)', async () => {
    const png = await textImage(['Handed over late']);
    const rejections: unknown[] = [];
    const onRejection = (e: unknown): void => void rejections.push(e);
    process.on('unhandledRejection', onRejection);
    try {
      // Released at once, or a few turns of the event loop later, with an idle worker in the pool.
      for (const turns of [0, 1, 2, 4]) {
        await ocrImage(png, { languages: ['eng'] });
        const running = ocrImage(png, { languages: ['eng'] });
        for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
        await releaseOcrWorkers();
        const e = await running.catch((err: unknown) => err);
        expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
      }
      await sleep(100);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections.map(String)).toEqual([]);
    // A recognition that never settles fails here rather than at the suite's minute.
  }, 30_000);
});
