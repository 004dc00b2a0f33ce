/**
 * OCR with tesseract.js, offline: language data comes from the installed `@tesseract.js-data/<code>`
 * packages (`langPath`, `gzip: true`, `cacheMethod: 'none'`), the engine from `tesseract.js-core`;
 * nothing is downloaded.
 *
 * Workers (each a thread with its own WebAssembly engine, about 0.4 s to start) are pooled per
 * language set, at most one per core and never more than {@link MAX_OCR_WORKERS}. An idle worker
 * does not keep the process alive and is terminated after {@link OCR_IDLE_MS}; call
 * {@link releaseOcrWorkers} to free them at once (tests, shutdown).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { QuarryError, quarryError, type Logger } from '@quarry/core';

/** A rectangle in image pixels, origin at the top-left. */
export interface OcrBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** One recognized word. `confidence` is 0-100. */
export interface OcrWord {
  text: string;
  confidence: number;
  bbox: OcrBox;
}

/** One line of words. */
export interface OcrLine {
  text: string;
  confidence: number;
  bbox: OcrBox;
  /** Y of the baseline in the middle of the line. */
  baseline: number;
  /**
   * Tesseract's row height estimate (ascender top to descender bottom), steadier than the box,
   * whose height depends on which letters the line happens to contain.
   */
  rowHeight: number;
  /** Depth of descenders below the baseline. */
  descent: number;
  words: OcrWord[];
}

/** One paragraph of lines. */
export interface OcrParagraph {
  text: string;
  confidence: number;
  bbox: OcrBox;
  lines: OcrLine[];
}

/** One block (a region of text) of paragraphs. */
export interface OcrBlock {
  text: string;
  confidence: number;
  bbox: OcrBox;
  paragraphs: OcrParagraph[];
}

/** What {@link ocrImage} found: the block tree, plus every line and word in reading order. */
export interface OcrResult {
  text: string;
  confidence: number;
  blocks: OcrBlock[];
  lines: OcrLine[];
  words: OcrWord[];
}

/** Options of {@link ocrImage}. */
export interface OcrOptions {
  /**
   * Tesseract language codes (`eng`, `deu`, ...), ISO 639-1 codes (`en`, `de`) or `eng+deu`
   * strings. Default `['eng']`. Codes without an installed data package are skipped with a
   * warning; when none is installed the call fails with `OCR_LANGUAGE_UNAVAILABLE`.
   */
  languages?: readonly string[];
  signal?: AbortSignal;
  logger?: Logger;
  /** The image's resolution, when known (it helps Tesseract size its text-line search). */
  dpi?: number;
}

/** Upper bound of pooled workers, whatever the core count. */
export const MAX_OCR_WORKERS = 2;
/** How long an idle worker is kept, in milliseconds. */
export const OCR_IDLE_MS = 30_000;

// ISO 639-1 -> Tesseract codes, for the languages users most often pass that way.
const ISO_639_1: Readonly<Record<string, string>> = {
  ar: 'ara', bg: 'bul', cs: 'ces', da: 'dan', de: 'deu', el: 'ell', en: 'eng', es: 'spa', et: 'est', fa: 'fas',
  fi: 'fin', fr: 'fra', he: 'heb', hi: 'hin', hr: 'hrv', hu: 'hun', id: 'ind', it: 'ita', ja: 'jpn', ko: 'kor',
  lt: 'lit', lv: 'lav', nl: 'nld', no: 'nor', pl: 'pol', pt: 'por', ro: 'ron', ru: 'rus', sk: 'slk', sl: 'slv',
  sr: 'srp', sv: 'swe', th: 'tha', tr: 'tur', uk: 'ukr', vi: 'vie', zh: 'chi_sim',
};

/** Where one language's trained data is installed. */
interface LanguageData {
  code: string;
  /** Directory holding `<code>.traineddata.gz`. */
  dir: string;
}

/**
 * Maps requested languages onto installed Tesseract data. Returns the languages found (deduplicated,
 * in request order) and the codes that have no installed data package.
 */
export function resolveOcrLanguages(languages: readonly string[] = ['eng']): { found: LanguageData[]; missing: string[] } {
  const require = createRequire(import.meta.url);
  const found: LanguageData[] = [];
  const missing: string[] = [];
  const codes = languages.flatMap((l) => l.split('+')).map((l) => l.trim().toLowerCase()).filter(Boolean);
  for (const raw of codes.length > 0 ? codes : ['eng']) {
    const code = ISO_639_1[raw] ?? raw;
    if (found.some((f) => f.code === code) || missing.includes(code)) continue;
    if (!/^[a-z_]+$/.test(code)) {
      missing.push(code);
      continue;
    }
    let root: string;
    try {
      root = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
    } catch {
      missing.push(code);
      continue;
    }
    // The integer LSTM model is what tesseract.js itself fetches for the LSTM engine: smaller and
    // faster to load than the combined legacy+LSTM data.
    const dir = ['4.0.0_best_int', '4.0.0'].map((d) => path.join(root, d)).find((d) => existsSync(path.join(d, `${code}.traineddata.gz`)));
    if (dir) found.push({ code, dir });
    else missing.push(code);
  }
  return { found, missing };
}

/** The slice of a tesseract.js worker used here. */
interface TesseractWorker {
  recognize(image: Uint8Array | Buffer, options?: object, output?: object): Promise<{ data: TesseractPage }>;
  setParameters(params: Record<string, string>): Promise<unknown>;
  terminate(): Promise<unknown>;
  worker?: { ref?(): void; unref?(): void } | null;
}

interface TesseractBbox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
interface TesseractWordData {
  text: string;
  confidence: number;
  bbox: TesseractBbox;
}
interface TesseractLineData {
  text: string;
  confidence: number;
  bbox: TesseractBbox;
  baseline?: TesseractBbox;
  rowAttributes?: { rowHeight?: number; descenders?: number; ascenders?: number };
  words: TesseractWordData[];
}
interface TesseractParagraphData {
  text: string;
  confidence: number;
  bbox: TesseractBbox;
  lines: TesseractLineData[];
}
interface TesseractBlockData {
  text: string;
  confidence: number;
  bbox: TesseractBbox;
  paragraphs: TesseractParagraphData[];
}
interface TesseractPage {
  text: string;
  confidence: number;
  blocks: TesseractBlockData[] | null;
}

interface PooledWorker {
  worker: TesseractWorker;
  busy: boolean;
  idleTimer?: NodeJS.Timeout;
  /** Ends the recognition running on this worker, if any. */
  stop?: (e: unknown) => void;
}

interface Waiter {
  resolve(w: PooledWorker): void;
  reject(e: unknown): void;
}

interface Pool {
  key: string;
  langs: LanguageData[];
  workers: PooledWorker[];
  starting: number;
  waiters: Waiter[];
  /** Set by releaseOcrWorkers(): workers still starting are terminated when they come up. */
  released: boolean;
}

const pools = new Map<string, Pool>();

function maxWorkers(): number {
  return Math.max(1, Math.min(MAX_OCR_WORKERS, availableParallelism()));
}

function abortError(signal: AbortSignal): QuarryError {
  return quarryError('JOB_ABORTED', 'OCR was cancelled', { cause: signal.reason });
}

async function startWorker(langs: LanguageData[], logger: Logger | undefined): Promise<TesseractWorker> {
  const { createWorker } = (await import('tesseract.js')) as unknown as {
    createWorker(langs: unknown, oem: number, options: object): Promise<TesseractWorker>;
  };
  const single = langs.length === 1 ? langs[0] : undefined;
  // One language: its data directory as `langPath`. Several (each in its own package): the data
  // itself, which tesseract.js accepts as `{ code, data }` and gunzips.
  const langArg = single ? single.code : langs.map((l) => ({ code: l.code, data: readFileSync(path.join(l.dir, `${l.code}.traineddata.gz`)) }));
  const worker = await createWorker(langArg, 1, {
    ...(single ? { langPath: single.dir } : {}),
    gzip: true,
    cacheMethod: 'none',
    // Without a handler tesseract.js rethrows a failed job inside its message listener, which
    // would crash the process; the job's promise rejects either way.
    errorHandler: (e: unknown) => logger?.debug('ocr: tesseract job failed', { reason: String(e) }),
  });
  return worker;
}

async function acquire(pool: Pool, signal: AbortSignal | undefined, logger: Logger | undefined): Promise<PooledWorker> {
  const idle = pool.workers.find((w) => !w.busy);
  if (idle) {
    markBusy(idle);
    return idle;
  }
  if (pool.workers.length + pool.starting < maxWorkers()) {
    pool.starting++;
    try {
      let worker: TesseractWorker;
      try {
        worker = await startWorker(pool.langs, logger);
      } catch (e) {
        // Callers queued behind this start would wait for a worker that never comes.
        for (const w of pool.waiters.splice(0)) w.reject(e);
        throw e;
      }
      if (pool.released) {
        await worker.terminate().catch(() => undefined);
        throw quarryError('JOB_ABORTED', 'the OCR workers were released');
      }
      const pooled: PooledWorker = { worker, busy: false };
      pool.workers.push(pooled);
      markBusy(pooled);
      if (signal?.aborted) {
        release(pool, pooled);
        throw abortError(signal);
      }
      return pooled;
    } finally {
      pool.starting--;
    }
  }
  return new Promise<PooledWorker>((resolve, reject) => {
    const waiter: Waiter = {
      resolve: (w) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(w);
      },
      reject: (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    };
    const onAbort = (): void => {
      pool.waiters.splice(pool.waiters.indexOf(waiter), 1);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    pool.waiters.push(waiter);
  });
}

function markBusy(w: PooledWorker): void {
  w.busy = true;
  if (w.idleTimer) clearTimeout(w.idleTimer);
  w.idleTimer = undefined;
  // A busy worker keeps the process alive so a pending recognition is not cut short.
  w.worker.worker?.ref?.();
}

function release(pool: Pool, w: PooledWorker): void {
  const next = pool.waiters.shift();
  if (next) {
    markBusy(w);
    next.resolve(w);
    return;
  }
  w.busy = false;
  w.worker.worker?.unref?.();
  w.idleTimer = setTimeout(() => void discard(pool, w), OCR_IDLE_MS);
  w.idleTimer.unref();
}

async function discard(pool: Pool, w: PooledWorker): Promise<void> {
  if (w.idleTimer) clearTimeout(w.idleTimer);
  const i = pool.workers.indexOf(w);
  if (i >= 0) pool.workers.splice(i, 1);
  await w.worker.terminate().catch(() => undefined);
}

/**
 * Recognizes the text of an image (PNG, JPEG, BMP, WebP, GIF or binary PNM bytes). Boxes are in
 * the image's pixels. Aborting the signal ends the recognition at once (its worker is terminated).
 *
 * @example
 * ```ts
 * const { blocks } = await ocrImage(png, { languages: ['eng'], signal });
 * ```
 */
export async function ocrImage(image: Uint8Array, options: OcrOptions = {}): Promise<OcrResult> {
  const { signal, logger } = options;
  if (signal?.aborted) throw abortError(signal);
  const { found, missing } = resolveOcrLanguages(options.languages ?? ['eng']);
  if (found.length === 0) {
    throw new QuarryError('OCR_LANGUAGE_UNAVAILABLE', `no OCR data is installed for ${missing.join(', ')} (install @tesseract.js-data/<code>)`, {
      details: { languages: missing },
    });
  }
  if (missing.length > 0) logger?.warn(`ocr: no data installed for ${missing.join(', ')}; using ${found.map((f) => f.code).join('+')}`);
  const key = found.map((f) => f.code).join('+');
  let pool = pools.get(key);
  if (!pool) {
    pool = { key, langs: found, workers: [], starting: 0, waiters: [], released: false };
    pools.set(key, pool);
  }
  const pooled = await acquire(pool, signal, logger);
  // tesseract.js never settles a job whose worker was terminated, so the recognition races a
  // promise that rejects on abort, or when releaseOcrWorkers() terminates the worker.
  let stop: ((e: unknown) => void) | undefined;
  let stopped = false;
  const stopPromise = new Promise<never>((_, reject) => {
    stop = (e) => {
      stopped = true;
      reject(e);
    };
  });
  const onAbort = (): void => stop?.(abortError(signal!));
  signal?.addEventListener('abort', onAbort, { once: true });
  pooled.stop = stop;
  try {
    const job = (async () => {
      await pooled.worker.setParameters({ user_defined_dpi: options.dpi ? String(Math.round(options.dpi)) : '' });
      // tesseract.js wants a Node Buffer (it checks with Buffer.isBuffer).
      const buffer = Buffer.isBuffer(image) ? image : Buffer.from(image.buffer, image.byteOffset, image.byteLength);
      return pooled.worker.recognize(buffer, {}, { text: true, blocks: true, hocr: false, tsv: false });
    })();
    job.catch(() => undefined);
    const { data } = await Promise.race([job, stopPromise]);
    return toResult(data);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    pooled.stop = undefined;
    if (stopped) await discard(pool, pooled);
    else release(pool, pooled);
  }
}

/**
 * Terminates every pooled OCR worker (tests, shutdown). Calls that are recognizing or waiting for a
 * worker fail with `JOB_ABORTED`.
 */
export async function releaseOcrWorkers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  const released = (): QuarryError => quarryError('JOB_ABORTED', 'the OCR workers were released');
  for (const p of all) {
    p.released = true;
    for (const w of p.waiters.splice(0)) w.reject(released());
    for (const w of p.workers) w.stop?.(released());
  }
  await Promise.all(all.flatMap((p) => p.workers.map((w) => discard(p, w))));
}

const box = (b: TesseractBbox): OcrBox => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 });

function toResult(page: TesseractPage): OcrResult {
  const lines: OcrLine[] = [];
  const words: OcrWord[] = [];
  const blocks: OcrBlock[] = (page.blocks ?? []).map((b) => ({
    text: b.text,
    confidence: b.confidence,
    bbox: box(b.bbox),
    paragraphs: b.paragraphs.map((p) => ({
      text: p.text,
      confidence: p.confidence,
      bbox: box(p.bbox),
      lines: p.lines.map((l) => {
        const descent = l.rowAttributes?.descenders ?? 0;
        const baseline = l.baseline ? (l.baseline.y0 + l.baseline.y1) / 2 : l.bbox.y1 - descent;
        const line: OcrLine = {
          text: l.text,
          confidence: l.confidence,
          bbox: box(l.bbox),
          baseline,
          rowHeight: l.rowAttributes?.rowHeight || l.bbox.y1 - l.bbox.y0,
          descent,
          words: l.words.map((w) => ({ text: w.text, confidence: w.confidence, bbox: box(w.bbox) })),
        };
        lines.push(line);
        words.push(...line.words);
        return line;
      }),
    })),
  }));
  return { text: page.text, confidence: page.confidence, blocks, lines, words };
}
