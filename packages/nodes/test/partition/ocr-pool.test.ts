import { TestScheduler } from 'rxjs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { isQuarryError } from '@quarry/core';
import { OcrWorkerPool } from '../../src/partition/ocr-pool.js';
import { loadTesseract, resolveOcrLanguages } from '../../src/partition/ocr.js';
import { textImage } from '../support/text-image.js';

type Worker = Awaited<ReturnType<Awaited<ReturnType<typeof loadTesseract>>['createWorker']>>;

// Real tesseract.js workers reading English; the pool's idle timer runs in virtual time.
let started = 0;
async function startEnglish(): Promise<Worker> {
  started++;
  const { createWorker } = await loadTesseract();
  return createWorker('eng', 1, { langPath: resolveOcrLanguages(['eng']).found[0]!.dir, gzip: true, cacheMethod: 'none' });
}

const read = (png: Uint8Array) => async (w: Worker) => (await w.recognize(Buffer.from(png))).data.text.trim();

let pool: OcrWorkerPool<Worker> | undefined;
afterEach(async () => {
  await pool?.release();
  pool = undefined;
  started = 0;
});

describe('OcrWorkerPool', () => {
  it('keeps an idle worker for the next call until idleMs have passed, then ends it', async () => {
    const clock = new TestScheduler(() => undefined);
    // Outside `run()`, a TestScheduler flushes what is due within 750 virtual ms.
    pool = new OcrWorkerPool(startEnglish, 1, 500, clock);
    expect(await pool.run(undefined, undefined, read(await textImage(['First call'])))).toBe('First call');
    expect(await pool.run(undefined, undefined, read(await textImage(['Second call'])))).toBe('Second call');
    expect([started, pool.size]).toEqual([1, 1]);
    clock.flush();
    expect(pool.size).toBe(0);
    expect(await pool.run(undefined, undefined, read(await textImage(['Third call'])))).toBe('Third call');
    expect([started, pool.size]).toEqual([2, 1]);
  }, 60_000);

  it('keeps as many idle workers as it is told to past idleMs, ends the others, and gives them the limit back at 0', async () => {
    const clock = new TestScheduler(() => undefined);
    // 200 virtual ms: the three flushes below stay within the scheduler's 750 frames.
    pool = new OcrWorkerPool(startEnglish, 2, 200, clock);
    pool.keepIdle(1);
    // Two calls at once: two workers.
    const both = await Promise.all([
      pool.run(undefined, undefined, read(await textImage(['Left call']))),
      pool.run(undefined, undefined, read(await textImage(['Right call']))),
    ]);
    expect([both, started, pool.size]).toEqual([['Left call', 'Right call'], 2, 2]);
    clock.flush();
    expect(pool.size).toBe(1);
    // The kept worker reads the next call, and stays after it.
    expect(await pool.run(undefined, undefined, read(await textImage(['Kept call'])))).toBe('Kept call');
    clock.flush();
    expect([started, pool.size]).toEqual([2, 1]);
    pool.keepIdle(0);
    clock.flush();
    expect(pool.size).toBe(0);
  }, 60_000);

  it('withdraws a call waiting for a busy worker when its signal aborts; the next call gets the worker', async () => {
    pool = new OcrWorkerPool(startEnglish, 1);
    const busy = pool.run(undefined, undefined, read(await textImage(Array.from({ length: 8 }, (_, i) => `Busy line ${i} of a long page`))));
    const controller = new AbortController();
    const waiting = pool.run(undefined, controller.signal, read(await textImage(['Never read'])));
    const next = pool.run(undefined, undefined, read(await textImage(['Read next'])));
    controller.abort();
    const e = await waiting.catch((err: unknown) => err);
    expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
    expect(await busy).toContain('Busy line 0');
    expect(await next).toBe('Read next');
    expect(started).toBe(1);
  }, 60_000);
});
