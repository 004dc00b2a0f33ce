import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Remembers which version of each document was written, for incremental runs
 * (`reprocess_all: false`). The engine records a version only after every destination
 * confirmed the write.
 */
export interface StateStore {
  /** The version last written for a record, if any. */
  get(recordId: string): Promise<string | undefined>;
  /** Records that `version` of `recordId` is fully written. */
  set(recordId: string, version: string): Promise<void>;
}

/**
 * True when the state store holds this very version of the document: an incremental run skips it.
 * A document without a version is never unchanged.
 */
export async function isUnchanged(state: StateStore | undefined, doc: { record_id: string; version?: string | undefined }): Promise<boolean> {
  return state !== undefined && doc.version !== undefined && (await state.get(doc.record_id)) === doc.version;
}

/** A {@link StateStore} that lives in memory (tests, one-shot runs). */
export class MemoryStateStore implements StateStore {
  private readonly map = new Map<string, string>();
  async get(recordId: string): Promise<string | undefined> {
    return this.map.get(recordId);
  }
  async set(recordId: string, version: string): Promise<void> {
    this.map.set(recordId, version);
  }
}

/**
 * A {@link StateStore} persisted as JSON lines (`{"r": record_id, "v": version}`), appended on
 * every `set` so a crash loses at most the line being written; the last line for a record wins.
 * The file is compacted when opened, so it does not grow without bound across runs.
 */
export class FileStateStore implements StateStore {
  private constructor(
    private readonly path: string,
    private readonly map: Map<string, string>,
  ) {}

  /** Opens (or creates) the store at `path`. */
  static async open(path: string): Promise<FileStateStore> {
    const map = new Map<string, string>();
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    let lines = 0;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      lines++;
      try {
        const o = JSON.parse(line) as { r?: unknown; v?: unknown };
        if (typeof o.r === 'string' && typeof o.v === 'string') map.set(o.r, o.v);
      } catch {
        // A torn last line from a crash: ignore it, the document is simply reprocessed.
      }
    }
    await mkdir(dirname(path), { recursive: true });
    if (lines > map.size) {
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, [...map].map(([r, v]) => `${JSON.stringify({ r, v })}\n`).join(''));
      await rename(tmp, path);
    }
    return new FileStateStore(path, map);
  }

  async get(recordId: string): Promise<string | undefined> {
    return this.map.get(recordId);
  }

  async set(recordId: string, version: string): Promise<void> {
    this.map.set(recordId, version);
    await appendFile(this.path, `${JSON.stringify({ r: recordId, v: version })}\n`);
  }
}
