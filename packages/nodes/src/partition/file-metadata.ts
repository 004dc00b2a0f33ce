import type { DataSourceMetadata, Element } from '@quarry/core';
import { applyLanguages } from './languages.js';

/** What a document's elements learn from the file they came from. */
export interface FileFacts {
  /** Base name of the file. */
  filename: string;
  /** The name as given (may hold a directory, used when `file_directory` is absent). */
  path: string;
  file_directory?: string;
  /** Detected MIME type; fills `filetype` where the partitioner left it empty. */
  filetype?: string;
  last_modified?: string;
  data_source?: DataSourceMetadata;
  /** Languages the caller declared (else detected per element). */
  languages?: string[];
}

/**
 * Stamps a document's own elements with the file's name, directory, type and date (filling gaps only:
 * elements read back from element JSON, and e-mail bodies dated by their Date header, keep what
 * their partitioner set), its provenance, and languages. Used by every partitioner entry point.
 */
export function stampFileMetadata(elements: Element[], file: FileFacts): Element[] {
  const directory = file.file_directory ?? fileDirName(file.path);
  for (const el of elements) {
    el.metadata.filename = file.filename;
    if (directory) el.metadata.file_directory = directory;
    if (file.filetype) el.metadata.filetype ??= file.filetype;
    if (file.last_modified) el.metadata.last_modified ??= file.last_modified;
    if (file.data_source) el.metadata.data_source = { ...file.data_source };
  }
  return applyLanguages(elements, file.languages ? { languages: file.languages } : {});
}

/** The base name of a path with `/` or `\\` separators. */
export function fileBaseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** The directory part of a path with `/` or `\\` separators; empty when it has none. */
export function fileDirName(path: string): string {
  const i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return i <= 0 ? (i === 0 ? path.slice(0, 1) : '') : path.slice(0, i);
}
