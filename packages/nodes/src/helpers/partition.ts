import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { errorMessage, quarryError, type Element } from '@quarry/core';
import { BUILTIN_FORMATS } from '../partition/formats/index.js';
import { partitionFile } from '../partition/partition-file.js';
import {
  partitionSettingsDefaults,
  requestFor,
  unstructuredApiPartitionNode,
  type PartitionUnstructuredApiSettings,
} from '../partition/unstructured-api.node.js';
import { checkSettings, type HelperCallOptions } from './run-node.js';

/**
 * Options of {@link partition}: the High Res / Fast partitioner's workflow settings (`strategy`,
 * `ocr_languages`, `infer_table_structure`, `exclude_elements`, `unique_element_ids`, ...), what
 * the document is called, and the call's signal and logger.
 */
export interface PartitionOptions extends Partial<Omit<PartitionUnstructuredApiSettings, 'strategy'>>, Omit<HelperCallOptions, 'services'> {
  /**
   * `fast` (text layers only) or `hi_res` (OCR, tables, images), as in a workflow. Absent: each
   * format chooses, and a PDF or image is read with OCR only where it has no text layer (the
   * `auto` strategy of the Python library `unstructured`).
   */
  strategy?: 'fast' | 'hi_res';
  /**
   * The file name written to `metadata.filename`; its extension helps detect the type. Defaults to
   * the path's base name, or `document` for bytes (whose type is then detected from their content).
   */
  filename?: string;
  /** The MIME type when known; skips detection. */
  filetype?: string;
  /** Document languages (ISO 639 codes) for `metadata.languages`; absent means detect. */
  languages?: string[];
}

/**
 * Partitions one document, given as a path or as bytes, into typed elements: the one-call form of
 * the `partition` workflow node (in this process; a job runs hostile files in child processes).
 * Settings are checked as in a workflow (`SETTINGS_INVALID` names each bad one); a path that cannot
 * be read fails with `DOCUMENT_READ_FAILED`, a document that cannot be parsed with the
 * partitioner's code (`FILETYPE_UNSUPPORTED`, `FILE_UNREADABLE`, `FILE_EMPTY`, ...).
 *
 * @example
 * ```ts
 * const elements = await partition('report.pdf', { strategy: 'hi_res', infer_table_structure: true });
 * const fromBytes = await partition(await readFile('notes.md'), { filename: 'notes.md' });
 * ```
 */
export async function partition(input: string | Uint8Array, options: PartitionOptions = {}): Promise<Element[]> {
  const { filename: givenName, filetype, languages, signal, logger, strategy, ...rest } = options;
  // The workflow requires a strategy; "auto" is checked as "fast" would be, and then left to each format.
  // A call that sets nothing else gets the defaults without building the schema (and loading zod).
  const settings =
    Object.keys(rest).length === 0 && (strategy === undefined || strategy === 'fast' || strategy === 'hi_res')
      ? partitionSettingsDefaults(strategy ?? 'fast')
      : checkSettings(unstructuredApiPartitionNode, { ...rest, strategy: strategy ?? 'fast' });
  const bytes = typeof input === 'string' ? await readPath(input, signal) : input;
  const filename = givenName ?? (typeof input === 'string' ? basename(input) : 'document');
  const directory = typeof input === 'string' && dirname(input) !== '.' ? dirname(input) : undefined;
  const request = requestFor(
    {
      record_id: filename,
      filename,
      ...(directory ? { file_directory: directory } : {}),
      ...(filetype ? { filetype } : {}),
      data_source: {},
      read: async () => bytes,
    },
    settings,
    BUILTIN_FORMATS,
  );
  return partitionFile(bytes, {
    ...request,
    strategy: strategy ?? 'auto',
    ...(languages ? { languages } : {}),
    ...(signal ? { signal } : {}),
    ...(logger ? { logger } : {}),
  });
}

async function readPath(path: string, signal: AbortSignal | undefined): Promise<Uint8Array> {
  try {
    return await readFile(path, signal ? { signal } : {});
  } catch (e) {
    throw quarryError('DOCUMENT_READ_FAILED', `cannot read ${path}: ${errorMessage(e)}`, { cause: e, details: { path } });
  }
}
