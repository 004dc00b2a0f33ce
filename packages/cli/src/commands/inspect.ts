import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { elementsFromJSON, errorMessage, type Element, type Logger } from '@quarry/core';
import { PartitionPool, renderInspection, type PartitionStrategy } from '@quarry/nodes';
import { partitionPoolOptions, type PartitionProcessFlags } from '../partition-processes.js';
import { UserError } from '../user-error.js';

/** Options of `quarry inspect`. */
export interface InspectCommandOptions extends PartitionProcessFlags {
  strategy: string;
  output?: string;
  elements?: string;
  maxPages?: number;
  ocrLanguages: string;
}

const STRATEGIES = ['fast', 'hi_res', 'auto', 'ocr_only'];

async function readInput(file: string, what: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (e) {
    throw new UserError(`cannot read ${what} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : errorMessage(e)}`);
  }
}

async function readElementFile(file: string): Promise<Element[]> {
  const text = (await readInput(file, 'element file')).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${file} is not JSON: ${errorMessage(e)}`);
  }
  return elementsFromJSON(json, { source: file });
}

function warningLogger(file: string): Logger {
  return {
    debug() {},
    info() {},
    warn: (message) => process.stderr.write(`quarry: warning: ${file}: ${message}\n`),
    error: (message) => process.stderr.write(`quarry: ${file}: ${message}\n`),
  };
}

/**
 * `quarry inspect FILE [--strategy S] [--elements ELEMENTS.json] [--output REPORT.html]`: partitions
 * FILE in a child process (or reads its elements from ELEMENTS.json) and writes the inspection
 * report, one self-contained HTML file (default `<file name>.html` in the working directory).
 */
export async function inspectCommand(file: string, opts: InspectCommandOptions): Promise<void> {
  if (!STRATEGIES.includes(opts.strategy)) throw new UserError(`--strategy must be one of ${STRATEGIES.join(', ')}, got "${opts.strategy}"`);
  const path = resolve(file);
  const filename = basename(path);
  const bytes = await readInput(path, 'document');
  let elements: Element[];
  let caption: string;
  if (opts.elements) {
    elements = await readElementFile(opts.elements);
    caption = `elements from ${basename(opts.elements)}`;
  } else {
    // One document: one partitioning process unless asked otherwise.
    const pool = new PartitionPool({ size: 1, ...partitionPoolOptions(opts) });
    try {
      elements = await pool.partition(
        bytes,
        {
          filename,
          file_directory: dirname(path),
          strategy: opts.strategy as PartitionStrategy,
          coordinates: true,
          infer_table_structure: true,
          ocr_languages: opts.ocrLanguages
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        },
        { logger: warningLogger(file) },
      );
    } finally {
      await pool.close();
    }
    caption = `strategy ${opts.strategy}`;
  }
  const onWarning = (message: string): void => void process.stderr.write(`quarry: warning: ${file}: ${message}\n`);
  const html = await renderInspection(elements, bytes, { filename, caption, onWarning, ...(opts.maxPages ? { maxPages: opts.maxPages } : {}) });
  const target = resolve(opts.output ?? `${filename}.html`);
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, html);
    await rename(tmp, target);
  } catch (e) {
    throw new UserError(`cannot write ${target}: ${errorMessage(e)}`);
  }
  process.stderr.write(`${elements.length} elements; report written to ${target}\n`);
}
