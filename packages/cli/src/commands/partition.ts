import { mkdir, open, readFile, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { elementToJSON } from '@quarry/core/element';
import { errorMessage, isQuarryError } from '@quarry/core/errors';
import type { PartitionStrategy, PdfEngine } from '@quarry/nodes';
import { PartitionPool } from '@quarry/nodes/pool';
import { cliLogger, type LineWriter } from '../cli-logger.js';
import { readStdinBytes } from '../read-json.js';
import { documentsInFlight, partitionPoolOptions, type PartitionProcessFlags } from '../partition-processes.js';
import { UserError } from '../user-error.js';

/** Options of `quarry partition`. */
export interface PartitionCommandOptions extends PartitionProcessFlags {
  strategy: string;
  output?: string;
  coordinates?: boolean;
  includePageBreaks?: boolean;
  inferTableStructure?: boolean;
  ocrLanguages: string;
  encoding: string;
  uniqueElementIds: boolean;
  /** `pdfium` or `pdfjs`; default the partitioner's. */
  pdfEngine?: string;
  /** Hide warnings (errors still print). */
  quiet?: boolean;
}

const STRATEGIES = ['fast', 'hi_res', 'auto', 'ocr_only'];
// Checked here rather than imported: this command's import path stays free of the partitioners.
const PDF_ENGINES: readonly PdfEngine[] = ['pdfium', 'pdfjs'];
// The names of this process's standard input.
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/**
 * `quarry partition FILE... [--strategy S] [--output DIR]`: writes `<file name>.json` per input
 * into DIR, or prints the element array for a single file without --output. Files are partitioned
 * in child processes (`--num-processes`, one per core by default), so a file that crashes, hangs
 * or exhausts its parser fails alone, reported on stderr with its code, and the others go on.
 */
export async function partitionCommand(files: string[], opts: PartitionCommandOptions): Promise<void> {
  if (!STRATEGIES.includes(opts.strategy)) throw new UserError(`--strategy must be one of ${STRATEGIES.join(', ')}, got "${opts.strategy}"`);
  if (opts.pdfEngine !== undefined && !PDF_ENGINES.includes(opts.pdfEngine as PdfEngine)) {
    throw new UserError(`--pdf-engine must be one of ${PDF_ENGINES.join(', ')}, got "${opts.pdfEngine}"`);
  }
  if (!opts.output && files.length > 1) throw new UserError('--output DIR is required when partitioning several files');
  if (opts.output) await mkdir(opts.output, { recursive: true });
  const pool = new PartitionPool(partitionPoolOptions(opts));
  // Several files get the progress bar `quarry run` draws; warnings and failures print above it.
  const progress = files.length > 1 ? (await import('../progress.js')).documentProgress(files.length) : undefined;
  const write: LineWriter = (line) => (progress ? progress.log(line) : void process.stderr.write(line));
  let failed = 0;
  const one = async (file: string): Promise<void> => {
    try {
      await partitionOne(pool, file, opts, write);
      progress?.tick(basename(file));
    } catch (e) {
      failed++;
      progress?.tick(basename(file), 'failed');
      const what = e instanceof UserError ? e.message : isQuarryError(e) ? `${file}: ${e.code}: ${e.message}` : `${file}: ${errorMessage(e)}`;
      write(`quarry: ${what}\n`);
    }
  };
  try {
    const lanes = Math.min(files.length, documentsInFlight(opts));
    let next = 0;
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < files.length) await one(files[next++]!);
      }),
    );
  } finally {
    progress?.stop();
    // The outputs are in place: this process ends without waiting while the system frees the
    // partition processes' memory (70-100 ms after a 619-page PDF).
    await pool.close({ waitForExit: false });
  }
  if (files.length > 1 || opts.output) process.stderr.write(`${files.length - failed} partitioned, ${failed} failed\n`);
  process.exitCode = failed ? 1 : 0;
}

// A partitioner's warnings (an OCR language without data, a page that could not be read) go to
// stderr beside the errors, where the user of the command looks, worded as every command words them.
async function partitionOne(pool: PartitionPool, file: string, opts: PartitionCommandOptions, write: LineWriter): Promise<void> {
  const path = resolve(file);
  const input = await documentInput(path, file);
  const request = {
    filename: basename(path),
    file_directory: dirname(path),
    strategy: opts.strategy as PartitionStrategy,
    coordinates: opts.coordinates ?? false,
    include_page_breaks: opts.includePageBreaks ?? false,
    infer_table_structure: opts.inferTableStructure ?? false,
    ocr_languages: opts.ocrLanguages
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    encoding: opts.encoding,
    unique_element_ids: opts.uniqueElementIds,
    ...(opts.pdfEngine ? { pdf_engine: opts.pdfEngine as PdfEngine } : {}),
  };
  const options = { logger: cliLogger({ quiet: opts.quiet ?? false, file, write }) };
  if (!opts.output) {
    const elements = await pool.partition(input, request, options);
    process.stdout.write(`${JSON.stringify(elements.map(elementToJSON), null, 2)}\n`);
    return;
  }
  // The partition process writes the file (complete, or not at all): the elements of a long
  // document do not cross back to this process to be written here.
  await pool.partitionToFile(input, request, join(opts.output, `${basename(path)}.json`), options);
}

/**
 * A regular file goes to the partition process by its real path, which it reads itself; anything
 * else (a pipe, a process substitution) is read here, where it can be read. `/dev/stdin` redirected
 * from a file resolves to that file; a socket (the stdin a Node parent gives its child) cannot be
 * opened by name, so standard input is read as a stream.
 */
async function documentInput(path: string, file: string): Promise<Uint8Array | { path: string }> {
  try {
    // A pipe has no real path: it is read here.
    const real = await realpath(path).catch(() => undefined);
    if (real !== undefined && (await stat(real)).isFile()) {
      // Opening it here gives the same clear error as reading it would (a file not readable).
      await (await open(real, 'r')).close();
      return { path: real };
    }
    return await readFile(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENXIO' && STDIN_PATHS.has(path)) return readStdinBytes();
      throw e;
    });
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(e)}`);
  }
}
