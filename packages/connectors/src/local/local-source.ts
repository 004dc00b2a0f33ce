import type { BigIntStats, Dirent } from 'node:fs';
import { opendir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { defineSource, errorMessage, QuarryError, quarryError, type Logger, type SourceConnector, type SourceDocument, type SourceRecord } from '@quarry/core';
import { z } from 'zod';
import { fileVersion, type VersionMode } from './file-version.js';
import { createPathFilter, type PathFilter } from './path-filter.js';

/** Config schema of the local source (`type: 'local'`). */
export const localSourceConfig = z.strictObject({
  path: z.string().min(1).describe('a directory to walk, or a single file'),
  recursive: z.boolean().default(true).describe('walk sub-directories'),
  include: z.array(z.string().min(1)).optional().describe('globs a file must match (relative paths, POSIX separators)'),
  exclude: z.array(z.string().min(1)).optional().describe('globs of files and directories to skip'),
  version: z.enum(['content_hash', 'size_mtime']).default('content_hash').describe('how a document version is computed'),
  follow_symlinks: z.boolean().default(false).describe('follow symbolic links to files and directories'),
});

/** Parsed config of the local source, defaults applied. */
export type LocalSourceConfig = z.output<typeof localSourceConfig>;

/** A file found by the walk. */
interface FoundFile {
  abs: string;
  /** Path relative to the root, POSIX separators: the document's `record_id`. */
  rel: string;
}

interface Walk {
  filter: PathFilter;
  recursive: boolean;
  followSymlinks: boolean;
  logger: Logger;
  signal: AbortSignal;
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw quarryError('JOB_ABORTED', 'local source listing was cancelled', { cause: signal.reason });
}

const byName = (a: Dirent, b: Dirent): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Stats the configured path; anything but an existing file or directory is `SOURCE_NOT_FOUND`. */
async function statRoot(root: string): Promise<BigIntStats> {
  let st: BigIntStats;
  try {
    st = await stat(root, { bigint: true });
  } catch (e) {
    throw new QuarryError('SOURCE_NOT_FOUND', `local source path "${root}" cannot be opened: ${errorMessage(e)}`, { cause: e, details: { path: root } });
  }
  if (!st.isFile() && !st.isDirectory()) {
    throw new QuarryError('SOURCE_NOT_FOUND', `local source path "${root}" is neither a file nor a directory`, { details: { path: root } });
  }
  return st;
}

async function readEntries(dir: string, w: Walk): Promise<Dirent[] | undefined> {
  const entries: Dirent[] = [];
  try {
    for await (const d of await opendir(dir)) entries.push(d);
  } catch (e) {
    w.logger.warn('local source: skipping a directory that cannot be read', { path: dir, error: errorMessage(e) });
    return undefined;
  }
  return entries.sort(byName);
}

const dirKey = (st: BigIntStats): string => `${st.dev}:${st.ino}`;

/**
 * Walks one directory depth-first in name order, so listings are deterministic. Entries of a
 * directory are read before any is yielded (to sort them), but sub-directories are opened only when
 * the consumer pulls that far. `ancestors` holds the directories on the current branch (device and
 * inode), to stop a followed link that points back up the tree.
 */
async function* walkDirectory(abs: string, rel: string, ancestors: Set<string>, w: Walk): AsyncGenerator<FoundFile> {
  const entries = await readEntries(abs, w);
  if (!entries) return;
  for (const d of entries) {
    throwIfAborted(w.signal);
    const childAbs = path.join(abs, d.name);
    const childRel = rel ? `${rel}/${d.name}` : d.name;
    let isDir = d.isDirectory();
    let isFile = d.isFile();
    let st: BigIntStats | undefined;
    if (d.isSymbolicLink()) {
      if (!w.followSymlinks) continue;
      try {
        st = await stat(childAbs, { bigint: true });
      } catch (e) {
        w.logger.warn('local source: skipping a broken symbolic link', { path: childAbs, error: errorMessage(e) });
        continue;
      }
      isDir = st.isDirectory();
      isFile = st.isFile();
    }
    if (isFile) {
      if (w.filter.includesFile(childRel)) yield { abs: childAbs, rel: childRel };
      continue;
    }
    // Sockets, FIFOs and devices are not documents.
    if (!isDir || !w.recursive || !w.filter.entersDirectory(childRel)) continue;
    if (!w.followSymlinks) {
      yield* walkDirectory(childAbs, childRel, ancestors, w);
      continue;
    }
    try {
      st ??= await stat(childAbs, { bigint: true });
    } catch (e) {
      w.logger.warn('local source: skipping a directory that cannot be read', { path: childAbs, error: errorMessage(e) });
      continue;
    }
    const key = dirKey(st);
    if (ancestors.has(key)) {
      w.logger.warn('local source: skipping a symbolic link that loops back to a parent directory', { path: childAbs });
      continue;
    }
    ancestors.add(key);
    yield* walkDirectory(childAbs, childRel, ancestors, w);
    ancestors.delete(key);
  }
}

/**
 * Epoch seconds as a decimal string: the form `unstructured-ingest` writes for dates
 * (Python's `str(st_mtime)`). Whole seconds and the fraction are converted apart, as Python does,
 * because nanoseconds since 1970 do not fit a double exactly.
 */
const epochSeconds = (ns: bigint): string => String(Number(ns / 1_000_000_000n) + Number(ns % 1_000_000_000n) / 1e9);

function readDocument(abs: string, recordId: string): SourceDocument['read'] {
  return async (signal) => {
    try {
      const buf = await readFile(abs, signal ? { signal } : {});
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    } catch (e) {
      if (signal?.aborted) throw quarryError('JOB_ABORTED', `reading "${recordId}" was cancelled`, { cause: e, details: { record_id: recordId } });
      throw quarryError('DOCUMENT_READ_FAILED', `cannot read "${abs}": ${errorMessage(e)}`, { cause: e, details: { record_id: recordId, path: abs } });
    }
  };
}

async function toDocument(file: FoundFile, mode: VersionMode, w: Walk): Promise<SourceDocument | undefined> {
  let st: BigIntStats;
  try {
    st = await stat(file.abs, { bigint: true });
  } catch (e) {
    // The file went away (or became unreachable) between the directory read and now.
    w.logger.warn('local source: skipping a file that cannot be examined', { path: file.abs, error: errorMessage(e) });
    return undefined;
  }
  let version: string | undefined;
  try {
    version = await fileVersion(mode, file.abs, st, w.signal);
  } catch (e) {
    throwIfAborted(w.signal);
    // Listed without a version: the document is processed, and its read fails as that document's own failure.
    w.logger.warn('local source: cannot compute the version of a file', { path: file.abs, error: errorMessage(e) });
  }
  const dateCreated = st.birthtimeNs > 0n ? epochSeconds(st.birthtimeNs) : undefined;
  return {
    record_id: file.rel,
    filename: path.basename(file.abs),
    file_directory: path.dirname(file.abs),
    version,
    size: Number(st.size),
    last_modified: new Date(Number(st.mtimeNs / 1_000_000n)).toISOString(),
    data_source: {
      url: pathToFileURL(file.abs).href,
      ...(version === undefined ? {} : { version }),
      record_locator: { protocol: 'file', remote_file_path: file.abs },
      ...(dateCreated === undefined ? {} : { date_created: dateCreated }),
      date_modified: epochSeconds(st.mtimeNs),
      permissions_data: [{ mode: Number(st.mode) }],
    },
    read: readDocument(file.abs, file.rel),
    // A partition process reads the file itself: its bytes never pass through the engine's process.
    localPath: file.abs,
  };
}

/**
 * The file a record names: `record_id` relative to the root (or the root itself when it is a file).
 * A record that points outside the root is refused, whoever sent it.
 */
function recordPath(root: string, rootIsFile: boolean, record: SourceRecord): string {
  if (rootIsFile) {
    if (record.record_id !== path.basename(root)) throw outside(root, record);
    return root;
  }
  const abs = path.resolve(root, ...record.record_id.split('/'));
  const rel = path.relative(root, abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw outside(root, record);
  return abs;
}

function outside(root: string, record: SourceRecord): QuarryError {
  return new QuarryError('INVALID_ARGUMENT', `record "${record.record_id}" is not a file of local source "${root}"`, {
    details: { record_id: record.record_id, path: root },
  });
}

/**
 * Local filesystem source: lists the files of a directory (or one file) lazily, depth-first in name
 * order. `record_id` is the path relative to the configured directory with `/` separators (the file
 * name alone when `path` is a file); `version` is the SHA-256 of the content, or `<size>-<mtime ns>`
 * with `version: 'size_mtime'`. A missing path throws `SOURCE_NOT_FOUND`; a sub-directory that cannot
 * be read is skipped with a warning.
 *
 * @example
 * ```ts
 * const source = await localSource.create(
 *   { path: './docs', recursive: true, include: ['*.pdf'], version: 'content_hash', follow_symlinks: false },
 *   { logger, signal },
 * );
 * for await (const doc of source.list(signal)) console.log(doc.record_id, doc.version);
 * ```
 */
export const localSource = defineSource<LocalSourceConfig>({
  type: 'local',
  description: 'files of a local directory (or one file)',
  config: localSourceConfig,
  async create(config, ctx) {
    const root = path.resolve(config.path);
    await statRoot(root);
    const filter = createPathFilter({ include: config.include, exclude: config.exclude });
    // count() walks the same tree before list() does: its warnings would only repeat list()'s.
    const quiet: Logger = {
      debug: (m, f) => ctx.logger.debug(m, f),
      info: (m, f) => ctx.logger.info(m, f),
      warn: (m, f) => ctx.logger.debug(m, f),
      error: (m, f) => ctx.logger.error(m, f),
    };
    const walk = (signal: AbortSignal, logger = ctx.logger): Walk => ({
      filter,
      recursive: config.recursive,
      followSymlinks: config.follow_symlinks,
      logger,
      signal: AbortSignal.any([signal, ctx.signal]),
    });
    // A file named explicitly is listed as is: globs and the hidden-file rule apply to walks only.
    const files = async (w: Walk): Promise<AsyncIterable<FoundFile> | FoundFile[]> => {
      throwIfAborted(w.signal);
      const st = await statRoot(root);
      return st.isFile() ? [{ abs: root, rel: path.basename(root) }] : walkDirectory(root, '', new Set([dirKey(st)]), w);
    };
    const connector: SourceConnector = {
      async *list(signal) {
        const w = walk(signal);
        for await (const file of await files(w)) {
          throwIfAborted(w.signal);
          const doc = await toDocument(file, config.version, w);
          if (doc) yield doc;
        }
      },
      async get(record, signal) {
        throwIfAborted(AbortSignal.any([signal, ctx.signal]));
        const st = await statRoot(root);
        const abs = recordPath(root, st.isFile(), record);
        return { ...record, read: readDocument(abs, record.record_id), localPath: abs };
      },
      async count(signal) {
        // Names only: no per-file stat and no hashing, so this costs one read per directory.
        let n = 0;
        for await (const _ of await files(walk(signal, quiet))) n += 1;
        return n;
      },
    };
    return connector;
  },
});
