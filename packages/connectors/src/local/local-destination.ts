import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { defineDestination, elementToJSON, errorMessage, QuarryError, quarryError, type DestinationConnector, type Element } from '@quarry/core';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write.js';

/** Config schema of the local destination (`type: 'local'`). */
export const localDestinationConfig = z.strictObject({
  path: z.string().min(1).describe('output directory, created when missing'),
  format: z.literal('json').default('json').describe('one JSON array of elements per document'),
  indent: z.number().int().min(0).max(8).default(2).describe('spaces of indentation; 0 writes one line'),
});

/** Parsed config of the local destination, defaults applied. */
export type LocalDestinationConfig = z.output<typeof localDestinationConfig>;

/** Suffix added to a document's `record_id` to name its output file. */
export const OUTPUT_SUFFIX = '.json';

/**
 * The output path of a record, `<dir>/<record_id>.json`. A `record_id` that is absolute or climbs
 * out of `dir` (`..`, empty or `.` segments, a NUL byte) is refused: it must not write elsewhere.
 */
export function outputPathFor(dir: string, recordId: string): string {
  const segments = recordId.split('/');
  const unsafe =
    recordId.length === 0 ||
    recordId.includes('\0') ||
    segments.some((s) => s === '' || s === '.' || s === '..') ||
    // A backslash separates directories on Windows, where it could climb out the same way.
    (path.sep === '\\' && recordId.includes('\\'));
  if (unsafe) {
    throw quarryError('DESTINATION_WRITE_FAILED', `record_id "${recordId}" cannot name a file under the output directory`, {
      details: { record_id: recordId },
    });
  }
  return path.join(dir, ...segments) + OUTPUT_SUFFIX;
}

/** The bytes written for one document: its elements' JSON form, as an array. */
export function serializeElements(elements: readonly Element[], indent: number): string {
  return `${JSON.stringify(elements.map(elementToJSON), null, indent)}\n`;
}

/**
 * Local filesystem destination: writes one `<record_id>.json` file per document under `path`, a JSON
 * array of the document's elements. The relative directories of `record_id` are kept, so files of the
 * same name in different folders do not collide; a top-level `report.pdf` becomes `report.pdf.json`.
 * Each write replaces the previous file atomically (temp file, then rename), so a re-run replaces and
 * never duplicates, and a reader never sees a partial file.
 *
 * @example
 * ```ts
 * const dest = await localDestination.create({ path: './out', format: 'json', indent: 2 }, { logger, signal });
 * await dest.prepare?.({ nodes: [] });
 * await dest.write({ document, elements }, { signal }); // ./out/<record_id>.json
 * ```
 */
export const localDestination = defineDestination<LocalDestinationConfig>({
  type: 'local',
  description: 'one JSON file of elements per document in a local directory',
  config: localDestinationConfig,
  create(config) {
    const dir = path.resolve(config.path);
    const connector: DestinationConnector = {
      async prepare() {
        try {
          await mkdir(dir, { recursive: true });
          const st = await stat(dir);
          if (!st.isDirectory()) throw new Error('not a directory');
        } catch (e) {
          throw new QuarryError('DESTINATION_UNAVAILABLE', `local destination "${dir}" cannot be used as an output directory: ${errorMessage(e)}`, {
            cause: e,
            details: { path: dir },
          });
        }
      },
      async write(flow, { signal }) {
        const recordId = flow.document.record_id;
        const target = outputPathFor(dir, recordId);
        try {
          const body = serializeElements(flow.elements, config.indent);
          await mkdir(path.dirname(target), { recursive: true });
          await writeFileAtomic(target, body, signal);
        } catch (e) {
          if (signal.aborted) throw quarryError('JOB_ABORTED', `writing "${recordId}" was cancelled`, { cause: e, details: { record_id: recordId } });
          throw quarryError('DESTINATION_WRITE_FAILED', `cannot write "${target}": ${errorMessage(e)}`, {
            cause: e,
            details: { record_id: recordId, path: target },
          });
        }
      },
    };
    return connector;
  },
});
