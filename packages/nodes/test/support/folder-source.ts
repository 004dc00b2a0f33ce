/**
 * A minimal source over a directory tree, so that engine tests in @quarry/nodes need no connector
 * package: every file below `root`, in sorted order, read lazily.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SourceConnector, SourceDocument } from '@quarry/core';

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : []));
}

/** Lists every file under `root` as a document whose record_id is its relative path. */
export function folderSource(root: string): SourceConnector {
  const files = walk(root);
  return {
    count: async () => files.length,
    async *list() {
      for (const file of files) {
        const rel = path.relative(root, file).split(path.sep).join('/');
        const doc: SourceDocument = {
          record_id: rel,
          filename: path.basename(file),
          file_directory: path.dirname(file),
          size: statSync(file).size,
          data_source: { url: `file://${file}`, record_locator: { path: file } },
          read: async () => new Uint8Array(readFileSync(file)),
        };
        yield doc;
      }
    },
  };
}
