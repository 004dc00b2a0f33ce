import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeElementJsonToFile } from '../element/json-pieces.js';
import { errorMessage, quarryError } from '../errors.js';
import { sha256File } from '../file-hash.js';
import type { DestinationConnector, SourceConnector, SourceDocument } from '../plugin/types.js';
import type { JobInputFile, JobOutputFile } from './records.js';
import { serviceError } from './service-errors.js';

/** An input file handed to a run: bytes in memory, or a file on disk the service takes over (moves). */
export type InputFile = { filename: string; content: Uint8Array } | { filename: string; path: string };

/** Limits on the input files of one job. */
export interface InputLimits {
  /** Files per job (default 10, as the platform's on-demand jobs). */
  maxFiles: number;
  /** Bytes per file (default 10 MiB). */
  maxFileBytes: number;
}

/** An input file stored under the job's directory. */
export interface StagedInput extends JobInputFile {
  path: string;
  size: number;
  sha256: string;
}

/** The directories of one job under the service's data directory. */
export function jobDirs(dataDir: string, jobId: string): { root: string; input: string; output: string } {
  const root = path.join(dataDir, 'jobs', jobId);
  return { root, input: path.join(root, 'input'), output: path.join(root, 'output') };
}

/** The upload's base name without directories or control characters (`file` when nothing is left). */
export function safeFilename(name: string): string {
  const base = name.replace(/\\/g, '/').split('/').pop() ?? '';
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await copyFile(from, to);
    await unlink(from);
  }
}

/** Checks the number and sizes of input files against the limits (`INPUT_TOO_LARGE`). */
export async function checkInputLimits(files: readonly InputFile[], limits: InputLimits): Promise<void> {
  if (files.length > limits.maxFiles)
    throw serviceError('INPUT_TOO_LARGE', `at most ${limits.maxFiles} input files per job; got ${files.length}`, { max_files: limits.maxFiles });
  for (const f of files) {
    const size = 'content' in f ? f.content.byteLength : (await stat(f.path)).size;
    if (size > limits.maxFileBytes) {
      throw serviceError('INPUT_TOO_LARGE', `input file ${JSON.stringify(safeFilename(f.filename))} has ${size} bytes; the limit is ${limits.maxFileBytes}`, {
        max_file_bytes: limits.maxFileBytes,
      });
    }
  }
}

/** Stores the input files of a job under `dir`, one file per id. */
export async function stageInputFiles(files: readonly InputFile[], dir: string): Promise<StagedInput[]> {
  await mkdir(dir, { recursive: true });
  const out: StagedInput[] = [];
  for (const f of files) {
    const fileId = randomUUID();
    const target = path.join(dir, fileId);
    if ('content' in f) await writeFile(target, f.content);
    else await moveFile(f.path, target);
    const size = (await stat(target)).size;
    out.push({ file_id: fileId, filename: safeFilename(f.filename), path: target, size, sha256: await sha256File(target, undefined, size) });
  }
  return out;
}

/**
 * The record id of each uploaded file: its name, or `<file_id>/<name>` when two uploads of the
 * job share a name (so each document keeps its own identity at the destination).
 */
export function uploadRecordIds(files: readonly JobInputFile[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const f of files) count.set(f.filename, (count.get(f.filename) ?? 0) + 1);
  return new Map(files.map((f) => [f.file_id, (count.get(f.filename) ?? 0) > 1 ? `${f.file_id}/${f.filename}` : f.filename]));
}

/** A source over the job's uploaded files (the "local source" of a workflow without source_id). */
export function uploadedFilesSource(files: readonly StagedInput[], uploadedAt: string): SourceConnector {
  const ids = uploadRecordIds(files);
  return {
    async *list() {
      for (const f of files) {
        const doc: SourceDocument = {
          record_id: ids.get(f.file_id)!,
          filename: f.filename,
          version: f.sha256,
          size: f.size,
          last_modified: uploadedAt,
          data_source: { version: f.sha256, record_locator: { protocol: 'upload', file_id: f.file_id } },
          localPath: f.path,
          async read(signal) {
            try {
              const buf = await readFile(f.path, signal ? { signal } : {});
              return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
            } catch (e) {
              throw quarryError('DOCUMENT_READ_FAILED', `cannot read uploaded file ${JSON.stringify(f.filename)}: ${errorMessage(e)}`, {
                cause: e,
                details: { file_id: f.file_id },
              });
            }
          },
        };
        yield doc;
      }
    },
    async count() {
      return files.length;
    },
  };
}

/** The file id of a written document: its upload id, or a digest of its record id for other sources. */
export function outputFileId(recordId: string, uploads: ReadonlyMap<string, string>): string {
  for (const [fileId, rid] of uploads) if (rid === recordId) return fileId;
  return createHash('sha256').update(recordId).digest('hex').slice(0, 32);
}

/** Where a kept output file lives. */
export function outputPath(outputDir: string, fileId: string): string {
  return path.join(outputDir, `${fileId}.json`);
}

/**
 * A destination that keeps each document's final elements as `<file_id>.json` in the job's output
 * directory (for download), reporting every file it wrote. Writes are atomic (temp file + rename).
 */
export function jobOutputDestination(dir: string, fileIdOf: (recordId: string) => string, onWritten: (file: JobOutputFile) => void): DestinationConnector {
  return {
    async prepare() {
      await mkdir(dir, { recursive: true });
    },
    async write(flow) {
      const fileId = fileIdOf(flow.document.record_id);
      const target = outputPath(dir, fileId);
      const tmp = `${target}.${randomUUID()}.tmp`;
      try {
        // Written a megabyte at a time: a long document's output does not hold the event loop (a server's) in one go.
        await writeElementJsonToFile(tmp, flow.elements);
        await rename(tmp, target);
      } catch (e) {
        await rm(tmp, { force: true });
        throw quarryError('DESTINATION_WRITE_FAILED', `cannot keep the output of ${JSON.stringify(flow.document.record_id)}: ${errorMessage(e)}`, { cause: e });
      }
      onWritten({ file_id: fileId, record_id: flow.document.record_id });
    },
  };
}
