import { stat } from 'node:fs/promises';
import { join } from 'node:path';

/** A document given as bytes, with the file name that tells its type and goes into `metadata.filename`. */
export interface NamedBytes {
  bytes: Uint8Array;
  filename: string;
}

/** A document to read: a path (a file or a folder) or bytes (named, or detected from their content). */
export type FileInput = string | Uint8Array | NamedBytes;

/** Which files of a folder are read (paths relative to the folder, POSIX separators). */
export interface FolderOptions {
  /**
   * Globs a file must match (`*.pdf`, `reports/**`); a glob without a slash matches a name at any
   * depth, as in `.gitignore`. Default: every file that is not hidden.
   */
  include?: readonly string[];
  /** Globs of files and folders to skip (`drafts`, `**\/*.tmp`); a glob without a slash matches at any depth. */
  exclude?: readonly string[];
  /** Walk sub-folders (default true). */
  recursive?: boolean;
}

/** One document to read: where it came from (its path, or `bytes[i]`) and how to get it. */
export interface FileItem {
  source: string;
  input: string | Uint8Array;
  /** The name for `metadata.filename`, when the input does not give it. */
  filename?: string;
}

/**
 * Every document of `inputs`, in order: a file path as given, a folder's files walked in name
 * order (recursively unless `recursive: false`, filtered by `include`/`exclude`), bytes as given.
 * A path that does not exist is given as it is, so reading it fails as that document's error.
 */
export async function* documentFiles(inputs: readonly FileInput[], options: FolderOptions = {}): AsyncGenerator<FileItem, void, undefined> {
  let index = 0;
  for (const input of inputs) {
    if (typeof input !== 'string') {
      const source = input instanceof Uint8Array ? `bytes[${index}]` : input.filename;
      yield input instanceof Uint8Array ? { source, input } : { source, input: input.bytes, filename: input.filename };
    } else if (await isFolder(input)) {
      for (const path of await folderFiles(input, options)) yield { source: path, input: path };
    } else yield { source: input, input };
    index++;
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

// A glob without a slash matches a name at any depth, as the local source connector's do.
const anywhere = (pattern: string): string => (pattern.includes('/') ? pattern.replace(/^\.?\//, '') : `**/${pattern}`);

async function folderFiles(folder: string, options: FolderOptions): Promise<string[]> {
  const include = options.include?.length ? options.include.map(anywhere) : ['**/*'];
  const exclude = (options.exclude ?? []).flatMap((p) => [anywhere(p), `${anywhere(p)}/**`]);
  // tinyglobby loads with the first folder: files and bytes never need it.
  const { glob } = await import('tinyglobby');
  const found = await glob(include, { cwd: folder, ignore: exclude, dot: false, onlyFiles: true });
  // tinyglobby gives relative POSIX paths in walk order: sorted, a folder reads the same every time.
  return found
    .filter((rel) => options.recursive !== false || !rel.includes('/'))
    .sort()
    .map((rel) => join(folder, rel));
}
