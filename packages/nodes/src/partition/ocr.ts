/**
 * OCR with tesseract.js, offline: language data comes from the installed `@tesseract.js-data/<code>`
 * packages (`langPath`, `gzip: true`, `cacheMethod: 'none'`; see ocr-languages.ts), the engine from
 * `tesseract.js-core`; nothing is downloaded. With the languages absent or `auto`, each image's
 * script is first detected with Tesseract's OSD (`@tesseract.js-data/osd`, legacy engine) and read
 * with the installed languages of that script.
 *
 * Workers (each a thread running its own instance of the compiled `tesseract.js-core` engine,
 * about 0.4 s to start, 2 s for OSD) are pooled per language set, at most one per core and never
 * more than {@link MAX_OCR_WORKERS} (one for OSD, which takes a fraction of a recognition's time).
 * An idle worker does not keep the process alive and is terminated after {@link OCR_IDLE_MS}; call
 * {@link releaseOcrWorkers} to free them at once (tests, shutdown).
 */
import { availableParallelism } from 'node:os';
import type { Logger } from '@quarry/core';
import { QuarryError } from '@quarry/core/errors';
import { processSetup } from '@quarry/core/process-setup';
import { importOptional } from '../optional-dependency.js';
import {
  languageSetDir,
  languagesForScript,
  missingLanguagesWarning,
  ocrDataPackage,
  resolveOcrLanguages,
  wantsAutoLanguages,
  type LanguageData,
} from './ocr-languages.js';
import { abortError, OcrWorkerPool, releasedError } from './ocr-pool.js';
import { rereadOtherScripts } from './ocr-script-lines.js';

export { resolveOcrLanguages } from './ocr-languages.js';
export { OCR_IDLE_MS } from './ocr-pool.js';

export type { OcrBlock, OcrBox, OcrLine, OcrParagraph, OcrResult, OcrWord } from './ocr-types.js';
import type { OcrBlock, OcrBox, OcrLine, OcrResult, OcrWord } from './ocr-types.js';

/** Options of {@link ocrImage}. */
export interface OcrOptions {
  /**
   * Tesseract language codes (`eng`, `deu`, ...), ISO 639-1 codes (`en`, `de`), `eng+deu` strings,
   * or `auto`: detect the script and use its installed languages. Default `['auto']`. Codes without
   * an installed data package are skipped with a warning in {@link OcrResult.warnings}; when none is
   * installed the call fails with `OCR_LANGUAGE_UNAVAILABLE`.
   */
  languages?: readonly string[];
  signal?: AbortSignal;
  logger?: Logger;
  /** The image's resolution, when known (it helps Tesseract size its text-line search). */
  dpi?: number;
}

/** Upper bound of pooled workers, whatever the core count. */
export const MAX_OCR_WORKERS = 2;

/** The slice of a tesseract.js worker used here. */
interface TesseractWorker {
  recognize(image: Uint8Array | Buffer, options?: object, output?: object): Promise<{ data: TesseractPage }>;
  detect(image: Uint8Array | Buffer): Promise<{ data: { script: string | null } }>;
  setParameters(params: Record<string, string>): Promise<unknown>;
  terminate(): Promise<unknown>;
  worker?: { ref?(): void; unref?(): void } | null;
}

/** What a job run by {@link onWorker} may call on its worker. */
type JobWorker = Pick<TesseractWorker, 'recognize' | 'detect' | 'setParameters'>;

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

/** The worker pools, by language set (`osd` for script detection). */
const pools = new Map<string, OcrWorkerPool<TesseractWorker>>();
/** Set by {@link keepOcrWorkers}: idle workers each pool keeps past its idle limit. */
let keptIdle = 0;

function maxWorkers(): number {
  return Math.max(1, Math.min(MAX_OCR_WORKERS, availableParallelism()));
}

function poolFor(key: string, size: number, start: (logger: Logger | undefined) => Promise<TesseractWorker>): OcrWorkerPool<TesseractWorker> {
  let pool = pools.get(key);
  if (!pool) {
    pool = new OcrWorkerPool(start, size);
    pool.keepIdle(keptIdle);
    pools.set(key, pool);
  }
  return pool;
}

type CreateWorker = (langs: unknown, oem: number, options: object) => Promise<TesseractWorker>;

/** What OCR needs installed: the engine, English and the script detection data (for `auto`). */
export const OCR_PACKAGES: readonly string[] = ['tesseract.js', ocrDataPackage('eng'), ocrDataPackage('osd')];

/**
 * tesseract.js, an optional peer.
 *
 * @throws OPTIONAL_DEPENDENCY_MISSING naming {@link OCR_PACKAGES} when it is not installed.
 */
export async function loadTesseract(): Promise<{ createWorker: CreateWorker }> {
  return importOptional<{ createWorker: CreateWorker }>('tesseract.js', 'OCR', { install: OCR_PACKAGES });
}

/**
 * Starts a worker: a thread that compiles the engine, loads the language data and initializes
 * Tesseract (about 0.75 s of CPU, three quarters of it Tesseract's own initialization). That is the
 * process's setup, not the document's work: in a partition pool's small lane, a small document that
 * is the first to need OCR (an e-mail's logo) does not hand its process off for it.
 */
function createWorker(langs: unknown, oem: number, options: object, logger: Logger | undefined): Promise<TesseractWorker> {
  return processSetup(async () => {
    const started = performance.now();
    const tesseract = await loadTesseract();
    const worker = await tesseract.createWorker(langs, oem, {
      ...options,
      gzip: true,
      cacheMethod: 'none',
      // Without a handler tesseract.js rethrows a failed job inside its message listener, which
      // would crash the process; the job's promise rejects either way.
      errorHandler: (e: unknown) => logger?.debug('ocr: tesseract job failed', { reason: String(e) }),
    });
    // Tesseract's own notes ("Too few characters. Skipping this page", "Invalid resolution") would
    // go to the process's stderr, among the warnings the user should read.
    await worker.setParameters({ debug_file: '/dev/null' });
    // On the logger of the document that waited for it: why a first OCR took longer.
    logger?.debug('ocr: engine started', { languages: langs, ms: Math.round(performance.now() - started) });
    return worker;
  });
}

/** A recognizing worker (LSTM engine) for a language set. */
function startRecognizer(langs: LanguageData[], logger: Logger | undefined): Promise<TesseractWorker> {
  return createWorker(langs.map((l) => l.code).join('+'), 1, { langPath: languageSetDir(langs) }, logger);
}

/** An OSD worker: OSD runs on the legacy engine only, with the `osd` data. */
async function startDetector(logger: Logger | undefined): Promise<TesseractWorker> {
  await loadTesseract();
  const osd = resolveOcrLanguages(['osd']).found[0];
  if (!osd) {
    throw new QuarryError(
      'OCR_LANGUAGE_UNAVAILABLE',
      `script detection needs ${ocrDataPackage('osd')}, which is not installed: npm install ${ocrDataPackage('osd')}`,
      { details: { languages: ['osd'] } },
    );
  }
  return createWorker('osd', 0, { langPath: osd.dir, legacyCore: true, legacyLang: true }, logger);
}

/**
 * Recognizes the text of an image (PNG, JPEG, BMP, WebP, GIF or binary PNM bytes). Boxes are in
 * the image's pixels. With `languages` absent or containing `auto`, the image's script is detected
 * first (see {@link detectScript}). Aborting the signal ends the recognition at once (its worker is
 * terminated).
 *
 * @example
 * ```ts
 * const { blocks, warnings } = await ocrImage(png, { languages: ['eng'], signal });
 * ```
 */
export async function ocrImage(image: Uint8Array, options: OcrOptions = {}): Promise<OcrResult> {
  const { signal, logger } = options;
  if (signal?.aborted) throw abortError(signal);
  const requested = options.languages ?? [];
  const { found, missing } = resolveOcrLanguages(requested);
  const warnings: string[] = [];
  let script: string | null | undefined;
  if (wantsAutoLanguages(requested)) {
    script = await detectScript(image, options);
    const detected = languagesForScript(script);
    if (detected.warning) warnings.push(detected.warning);
    // The detected script's languages first: Tesseract prefers the first language of a set.
    found.unshift(...detected.found.filter((d) => !found.some((f) => f.code === d.code)));
    logger?.debug('ocr: script detected', { script, languages: found.map((f) => f.code) });
  }
  if (found.length === 0) {
    // Without the engine, say so before anything about its language data.
    await loadTesseract();
    throw new QuarryError(
      'OCR_LANGUAGE_UNAVAILABLE',
      `no OCR data is installed for ${missing.join(', ')}: npm install ${missing.map(ocrDataPackage).join(' ')}`,
      {
        details: { languages: missing },
      },
    );
  }
  if (missing.length > 0) warnings.unshift(missingLanguagesWarning(missing, found));
  const data = await recognize(found, image, options);
  const result: OcrResult = { ...toResult(data), languages: found.map((f) => f.code), ...(script === undefined ? {} : { script }), warnings };
  if (script !== undefined) {
    // Lines in another script than the page's: read again with that script's installed languages.
    const other = await rereadOtherScripts(image, result, found, script, {
      read: async (langs, box) => {
        const region = await recognize(langs, image, options, box);
        return { confidence: region.confidence, lines: toResult(region).lines };
      },
      detect: (strip) => detectScript(strip, options),
    });
    result.languages.push(...other.languages);
    warnings.push(...other.warnings);
  }
  return result;
}

/** Reads the image, or a region of it, with a language set on a pooled worker. */
function recognize(langs: LanguageData[], image: Uint8Array, options: OcrOptions, box?: OcrBox): Promise<TesseractPage> {
  const pool = poolFor(langs.map((f) => f.code).join('+'), maxWorkers(), (l) => startRecognizer(langs, l));
  const rectangle = box && { left: Math.round(box.x0), top: Math.round(box.y0), width: Math.round(box.x1 - box.x0), height: Math.round(box.y1 - box.y0) };
  return onWorker(pool, image, options, async (worker, buffer) => {
    await worker.setParameters({ user_defined_dpi: options.dpi ? String(Math.round(options.dpi)) : '' });
    return (await worker.recognize(buffer, rectangle ? { rectangle } : {}, { text: true, blocks: true, hocr: false, tsv: false })).data;
  });
}

/**
 * Detects the script of an image with Tesseract's OSD: `Latin`, `Cyrillic`, `Korean`, `Japanese`,
 * `Han`, `Arabic`, ... or null when the image has too little text to tell.
 */
export async function detectScript(image: Uint8Array, options: Pick<OcrOptions, 'signal' | 'logger' | 'dpi'> = {}): Promise<string | null> {
  const pool = poolFor('osd', 1, startDetector);
  return onWorker(pool, image, options, async (worker, buffer) => {
    // OSD reads the resolution too; without one Tesseract guesses (and says so on stderr).
    await worker.setParameters({ user_defined_dpi: String(Math.round(options.dpi ?? 300)) });
    return (await worker.detect(buffer)).data.script;
  });
}

/**
 * Runs `job` on a worker of `pool` with the image as a Node Buffer (tesseract.js checks with
 * Buffer.isBuffer). Aborting the signal, or {@link releaseOcrWorkers}, ends it at once.
 */
function onWorker<T>(
  pool: OcrWorkerPool<TesseractWorker>,
  image: Uint8Array,
  options: Pick<OcrOptions, 'signal' | 'logger'>,
  job: (worker: JobWorker, image: Buffer) => Promise<T>,
): Promise<T> {
  return pool.run(options.logger, options.signal, (tesseract, alive) => {
    const buffer = Buffer.isBuffer(image) ? image : Buffer.from(image.buffer, image.byteOffset, image.byteLength);
    // A call on a terminated worker makes tesseract.js post to a null worker and reject a promise
    // it never returns, an unhandled rejection: a step after the job was stopped is not sent.
    const step = <R>(call: (w: TesseractWorker) => Promise<R>): Promise<R> => (alive() ? call(tesseract) : Promise.reject(releasedError()));
    const worker: JobWorker = {
      setParameters: (params) => step((w) => w.setParameters(params)),
      recognize: (img, opts, output) => step((w) => w.recognize(img, opts, output)),
      detect: (img) => step((w) => w.detect(img)),
    };
    return job(worker, buffer);
  });
}

/**
 * Has each OCR language set keep `count` started workers for the life of the process, however long
 * they sit idle, instead of ending them after {@link OCR_IDLE_MS}: a server's partition process
 * readied for small documents keeps its engine for the next e-mail's logo. `0` gives the idle limit
 * back.
 */
export function keepOcrWorkers(count: number): void {
  keptIdle = count;
  for (const pool of pools.values()) pool.keepIdle(count);
}

/**
 * Terminates every pooled OCR worker (tests, shutdown). Calls that are recognizing or waiting for a
 * worker fail with `JOB_ABORTED`.
 */
export async function releaseOcrWorkers(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.release()));
}

const box = (b: TesseractBbox): OcrBox => ({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 });

function toResult(page: TesseractPage): Omit<OcrResult, 'languages' | 'script' | 'warnings'> {
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
          words: spacedWords(l),
        };
        lines.push(line);
        words.push(...line.words);
        return line;
      }),
    })),
  }));
  return { text: page.text, confidence: page.confidence, blocks, lines, words };
}

/**
 * A line's words, those Tesseract set down with no space between them joined into one: it boxes
 * Hangul syllable by syllable, while its line text keeps the words whole ("적립된", not "적 립 된").
 */
function spacedWords(line: TesseractLineData): OcrWord[] {
  const out: OcrWord[] = [];
  let at = 0;
  for (const w of line.words) {
    const word: OcrWord = { text: w.text, confidence: w.confidence, bbox: box(w.bbox) };
    const i = w.text ? line.text.indexOf(w.text, at) : -1;
    const prev = out[out.length - 1];
    if (i === at && prev) {
      const n = prev.text.length;
      prev.confidence = (prev.confidence * n + word.confidence * word.text.length) / (n + word.text.length);
      prev.text += word.text;
      prev.bbox = {
        x0: Math.min(prev.bbox.x0, word.bbox.x0),
        y0: Math.min(prev.bbox.y0, word.bbox.y0),
        x1: Math.max(prev.bbox.x1, word.bbox.x1),
        y1: Math.max(prev.bbox.y1, word.bbox.y1),
      };
    } else out.push(word);
    if (i >= 0) at = i + w.text.length;
  }
  return out;
}
