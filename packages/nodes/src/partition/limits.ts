import type { ErrorCode } from '@quarry/core';
import { QuarryError } from '@quarry/core/errors';

/**
 * How much of a document the partitioners will read. Past a limit a document fails alone with a
 * coded error naming the limit and the environment variable that raises it, before the process
 * spends the time or memory a hostile file asks for. Defaults sit far above real documents and keep
 * one partitioning process under about 1 GB of resident memory.
 */
export interface PartitionLimits {
  /** Pixels of one image or TIFF page, read from its header before any decoder runs. */
  maxImagePixels: number;
  /** Pages of one PDF. */
  maxPdfPages: number;
  /** Nesting of elements (XML, HTML, Markdown, JSON) a partitioner walks. */
  maxNestingDepth: number;
  /** E-mails attached to e-mails: deeper attachments are left out, with a warning. */
  maxEmbeddingDepth: number;
  /** Bytes of one line of a text or CSV file. */
  maxLineBytes: number;
  /** Bytes of a CSV or TSV file: the whole file is one Table element, built in memory. */
  maxCsvBytes: number;
  /** Bytes of a plain-text file: read in pieces, but every paragraph becomes an element. */
  maxTextBytes: number;
  /** Inflated bytes of the XML parts of one office document (DOCX, PPTX, ODT, XLSX) together, which are parsed whole. */
  maxXmlBytes: number;
}

/** A limit's environment variable and the unit its value counts. */
interface LimitSpec {
  env: string;
  unit: string;
  fallback: number;
}

const SPECS: Readonly<Record<keyof PartitionLimits, LimitSpec>> = {
  // A 600 dpi A3 scan is 7016 x 9921 (70 M pixels); each decoded copy costs 4 bytes a pixel.
  maxImagePixels: { env: 'QUARRY_MAX_IMAGE_PIXELS', unit: 'pixels', fallback: 100_000_000 },
  maxPdfPages: { env: 'QUARRY_MAX_PDF_PAGES', unit: 'pages', fallback: 10_000 },
  maxNestingDepth: { env: 'QUARRY_MAX_NESTING_DEPTH', unit: 'levels', fallback: 512 },
  maxEmbeddingDepth: { env: 'QUARRY_MAX_EMBEDDING_DEPTH', unit: 'levels', fallback: 8 },
  maxLineBytes: { env: 'QUARRY_MAX_LINE_BYTES', unit: 'bytes', fallback: 16 * 2 ** 20 },
  // Parsing and building the Table's text and HTML: 16 MB peaked at 632 MB resident, 50 MB at 1.8 GB.
  maxCsvBytes: { env: 'QUARRY_MAX_CSV_BYTES', unit: 'bytes', fallback: 16 * 2 ** 20 },
  // A text file's elements outweigh it many times: 64 MB (190,000 elements) peaked at 843 MB resident.
  maxTextBytes: { env: 'QUARRY_MAX_TEXT_BYTES', unit: 'bytes', fallback: 64 * 2 ** 20 },
  // Parsed into a tree, a DOCX's XML costs about 15 MB of memory per MB: 32 MiB peaks near 670 MB.
  // XLSX sheets are streamed: 32 MiB of sheet XML peaked near 600 MB with the Table it makes.
  maxXmlBytes: { env: 'QUARRY_MAX_XML_BYTES', unit: 'bytes of XML', fallback: 32 * 2 ** 20 },
};

/**
 * Most pixels a page is read with by OCR, and a PDF page is rendered at (OCR and region images):
 * Tesseract keeps several copies of its input, and a 100 M-pixel image peaked at 2.2 GB resident.
 * An A4 page at 450 dpi; larger pages are read at a lower resolution instead of failing.
 */
export const MAX_OCR_PIXELS = 20_000_000;

/** The environment variable that sets each limit (a positive integer). */
export const LIMIT_ENV: Readonly<Record<keyof PartitionLimits, string>> = Object.freeze(
  Object.fromEntries(Object.entries(SPECS).map(([k, s]) => [k, s.env])) as Record<keyof PartitionLimits, string>,
);

/** The limits without any environment variable set. */
export const DEFAULT_LIMITS: Readonly<PartitionLimits> = Object.freeze(
  Object.fromEntries(Object.entries(SPECS).map(([k, s]) => [k, s.fallback])) as unknown as PartitionLimits,
);

/**
 * The limits in force: each from its environment variable when that holds a positive integer,
 * else its default. Read per call so that a test or a host can change them; the environment
 * carries them into partitioning child processes.
 *
 * @example
 * ```ts
 * process.env.QUARRY_MAX_PDF_PAGES = '50000';
 * partitionLimits().maxPdfPages; // 50000
 * ```
 */
export function partitionLimits(env: NodeJS.ProcessEnv = process.env): PartitionLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const [key, spec] of Object.entries(SPECS) as [keyof PartitionLimits, LimitSpec][]) {
    const raw = env[spec.env]?.trim();
    if (raw && /^[1-9]\d*$/.test(raw)) out[key] = Number(raw);
  }
  return out;
}

/**
 * The error for a document past a limit: `code` (`FILE_TOO_LARGE`, `DOCUMENT_TOO_COMPLEX`), a
 * sentence naming the file, what it holds, the limit and the variable that raises it.
 *
 * @example
 * ```ts
 * throw limitError('FILE_TOO_LARGE', 'maxImagePixels', 'scan.png', 2_500_000_000, limits);
 * // scan.png: 2500000000 pixels, over the limit of 100000000 pixels (set QUARRY_MAX_IMAGE_PIXELS to raise it)
 * ```
 */
export function limitError(
  code: ErrorCode,
  limit: keyof PartitionLimits,
  filename: string,
  found: number,
  limits: PartitionLimits = partitionLimits(),
): QuarryError {
  const { env, unit } = SPECS[limit];
  return new QuarryError(code, `${filename}: ${found} ${unit}, over the limit of ${limits[limit]} ${unit} (set ${env} to raise it)`, {
    details: { filename, limit: env, limit_value: limits[limit], found },
  });
}

/** The warning text for content a limit left out (deeper nesting, deeper attachments). */
export function limitWarning(limit: keyof PartitionLimits, filename: string, what: string, limits: PartitionLimits = partitionLimits()): string {
  const { env, unit } = SPECS[limit];
  return `${filename}: ${what} past the limit of ${limits[limit]} ${unit} left out (set ${env} to raise it)`;
}
