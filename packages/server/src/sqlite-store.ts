import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import sqlite, { type Database, type Statement } from 'node-sqlite3-wasm';
import { quarryError } from '@quarry/core';
import { COLLECTIONS, type Collection, type CollectionRecords, type Store, type StoreQuery } from '@quarry/core/service';
import { freeBytes } from './disk-errors.js';
import './errors.js';

/** Bumped when the table layout changes; the store refuses a newer database than it knows. */
const SCHEMA_VERSION = 1;

/**
 * The default {@link Store}: one embedded SQLite file (node-sqlite3-wasm: SQLite compiled to
 * WebAssembly, so installing it builds and downloads nothing; WAL journal). Each collection is
 * a table with the columns reads filter on (`workspace`, `created_at`, and for jobs `workflow_id`
 * and `status`) and the row as JSON in `data`. Every call is synchronous: it finishes before it
 * returns, which also makes each write atomic. One process at a time: the open store holds a
 * `<file>.lock` directory and names itself in `<file>.owner`; opening it elsewhere throws
 * `STORE_LOCKED`, and a lock whose process on this host is gone (killed) is taken over.
 *
 * @example
 * ```ts
 * const store = SqliteStore.open('/var/lib/quarry/quarry.db');
 * const service = await WorkflowService.open({ engine, store, dataDir: '/var/lib/quarry' });
 * ```
 */
export class SqliteStore implements Store {
  // Prepared once per SQL text and finalized on close: the WebAssembly heap is not garbage-collected.
  private readonly statements = new Map<string, Statement>();

  private constructor(
    private readonly db: Database,
    private readonly ownerFile: string | undefined,
    private readonly file: string,
  ) {}

  /** Opens (creating when missing) the database file; `:memory:` gives a private in-memory database. */
  static open(file: string): SqliteStore {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const owned = file === ':memory:' ? undefined : `${file}.owner`;
    if (owned) takeOverStaleLock(file, owned);
    const db = new sqlite.Database(file);
    // The VFS has no shared memory, so WAL works only with the lock held for the connection's life
    // (exclusive locking); WAL with synchronous NORMAL then needs no fsync per commit.
    try {
      db.get('PRAGMA locking_mode = EXCLUSIVE');
      db.get('PRAGMA journal_mode = WAL');
    } catch (e) {
      db.close();
      const owner = owned && readOwner(owned);
      throw quarryError('STORE_LOCKED', `${file} is in use by another process (${owner ?? 'owner unknown'}); stop it, or remove ${file}.lock if none runs`, {
        cause: e,
        details: { file, owner },
      });
    }
    db.get('PRAGMA synchronous = NORMAL');
    const version = (db.get('PRAGMA user_version') as { user_version: number }).user_version;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new Error(`${file} was written by a newer quarry (schema ${version}; this one knows ${SCHEMA_VERSION})`);
    }
    db.exec(
      COLLECTIONS.map(
        (
          c,
        ) => `CREATE TABLE IF NOT EXISTS ${c} (id TEXT PRIMARY KEY, workspace TEXT NOT NULL, created_at TEXT NOT NULL, workflow_id TEXT, status TEXT, data TEXT NOT NULL);
          CREATE INDEX IF NOT EXISTS ${c}_by_workspace ON ${c} (workspace, created_at, id);`,
      ).join('\n') +
        `CREATE INDEX IF NOT EXISTS jobs_by_workflow ON jobs (workspace, workflow_id);
         CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status);
         CREATE TABLE IF NOT EXISTS document_versions (workspace TEXT NOT NULL, workflow_id TEXT NOT NULL, record_id TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY (workspace, workflow_id, record_id)) WITHOUT ROWID;
         PRAGMA user_version = ${SCHEMA_VERSION};`,
    );
    if (owned) {
      writeFileSync(owned, `${hostname()} ${process.pid}\n`);
      openHere.add(path.resolve(file));
    }
    return new SqliteStore(db, owned, file);
  }

  /**
   * Runs `use` on the cached statement of `sql`. A statement whose step failed keeps the failure
   * (SQLite's reset returns it again), so it is finalized and prepared anew next time; an I/O
   * failure becomes `DISK_FULL` or `STORE_UNAVAILABLE`.
   */
  private with<T>(sql: string, use: (stmt: Statement) => T): T {
    let stmt = this.statements.get(sql);
    try {
      if (!stmt) {
        stmt = this.db.prepare(sql);
        this.statements.set(sql, stmt);
      }
      return use(stmt);
    } catch (e) {
      if (stmt) {
        this.statements.delete(sql);
        try {
          stmt.finalize();
        } catch {
          // finalize repeats the step's error; the statement is released all the same.
        }
      }
      throw storeIoError(e, this.file) ?? e;
    }
  }

  async get<C extends Collection>(collection: C, workspace: string, id: string): Promise<CollectionRecords[C] | undefined> {
    const row = this.with(`SELECT data FROM ${table(collection)} WHERE id = ? AND workspace = ?`, (st) => st.get([id, workspace])) as { data: string } | null;
    return row ? (JSON.parse(row.data) as CollectionRecords[C]) : undefined;
  }

  async list<C extends Collection>(collection: C, query: StoreQuery): Promise<Array<CollectionRecords[C]>> {
    const where: string[] = [];
    const args: string[] = [];
    if (query.workspace !== undefined) {
      where.push('workspace = ?');
      args.push(query.workspace);
    }
    if (query.workflowId !== undefined) {
      where.push('workflow_id = ?');
      args.push(query.workflowId);
    }
    if (query.statuses !== undefined) {
      if (query.statuses.length === 0) return [];
      where.push(`status IN (${query.statuses.map(() => '?').join(', ')})`);
      args.push(...query.statuses);
    }
    const sql = `SELECT data FROM ${table(collection)}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, id`;
    return (this.with(sql, (st) => st.all(args)) as Array<{ data: string }>).map((r) => JSON.parse(r.data) as CollectionRecords[C]);
  }

  async put<C extends Collection>(collection: C, record: CollectionRecords[C]): Promise<void> {
    const r = record as { workflow_id?: string; status?: string };
    const result = this.with(
      `INSERT INTO ${table(collection)} (id, workspace, created_at, workflow_id, status, data) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, workflow_id = excluded.workflow_id, status = excluded.status, data = excluded.data
       WHERE workspace = excluded.workspace`,
      (st) => st.run([record.id, record.workspace, record.created_at, r.workflow_id ?? null, r.status ?? null, JSON.stringify(record)]),
    );
    // Ids are unique across workspaces; a row never moves to another workspace.
    if (result.changes === 0) throw new Error(`id ${record.id} belongs to another workspace`);
  }

  async delete(collection: Collection, workspace: string, id: string): Promise<boolean> {
    return this.with(`DELETE FROM ${table(collection)} WHERE id = ? AND workspace = ?`, (st) => st.run([id, workspace]).changes) > 0;
  }

  async getDocumentVersion(workspace: string, workflowId: string, recordId: string): Promise<string | undefined> {
    const row = this.with('SELECT version FROM document_versions WHERE workspace = ? AND workflow_id = ? AND record_id = ?', (st) =>
      st.get([workspace, workflowId, recordId]),
    ) as { version: string } | null;
    return row?.version;
  }

  async setDocumentVersion(workspace: string, workflowId: string, recordId: string, version: string): Promise<void> {
    this.with(
      'INSERT INTO document_versions (workspace, workflow_id, record_id, version) VALUES (?, ?, ?, ?) ON CONFLICT (workspace, workflow_id, record_id) DO UPDATE SET version = excluded.version',
      (st) => st.run([workspace, workflowId, recordId, version]),
    );
  }

  async deleteDocumentVersions(workspace: string, workflowId: string): Promise<void> {
    this.with('DELETE FROM document_versions WHERE workspace = ? AND workflow_id = ?', (st) => st.run([workspace, workflowId]));
  }

  async close(): Promise<void> {
    if (!this.db.isOpen) return;
    for (const stmt of this.statements.values()) stmt.finalize();
    this.statements.clear();
    this.db.close();
    if (this.ownerFile) {
      rmSync(this.ownerFile, { force: true });
      openHere.delete(path.resolve(this.ownerFile.slice(0, -'.owner'.length)));
    }
  }
}

// Files this process holds open: a restarted container often reuses the dead owner's pid.
const openHere = new Set<string>();

/** The `<host> <pid>` a store's owner file names, if it is there. */
function readOwner(ownerFile: string): string | undefined {
  return existsSync(ownerFile) ? readFileSync(ownerFile, 'utf8').trim() : undefined;
}

// A process killed while holding the store leaves its lock directory behind; SQLite's WAL recovery
// makes the file consistent again, so the lock of a gone process on this host is released here.
function takeOverStaleLock(file: string, ownerFile: string): void {
  if (!existsSync(`${file}.lock`)) return;
  const [host, pid] = (readOwner(ownerFile) ?? '').split(' ');
  if (host !== hostname() || !pid || openHere.has(path.resolve(file))) return;
  if (Number(pid) !== process.pid && isAlive(Number(pid))) return;
  rmdirSync(`${file}.lock`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// SQLite's messages for a failed read or write of the file (the VFS reports ENOSPC as an I/O error).
const IO_FAILURE = /disk I\/O error|database or disk is full|unable to open database file|attempt to write a readonly database/;
// Below this much free space, an I/O failure is taken for a full disk.
const FULL_BELOW_BYTES = 1024 * 1024;

/** An I/O failure of the store as `DISK_FULL` (507) or `STORE_UNAVAILABLE` (503); undefined for any other error. */
function storeIoError(e: unknown, file: string): Error | undefined {
  if (!(e instanceof Error) || e.name !== 'SQLite3Error' || !IO_FAILURE.test(e.message)) return undefined;
  const free = file === ':memory:' ? undefined : freeBytes(path.dirname(path.resolve(file)));
  if (/is full/.test(e.message) || (free !== undefined && free < FULL_BELOW_BYTES)) {
    return quarryError('DISK_FULL', `No space left to write the store ${file} (${free ?? 'unknown'} bytes free): ${e.message}. Free some space and retry.`, {
      cause: e,
      details: { file, free_bytes: free },
    });
  }
  return quarryError('STORE_UNAVAILABLE', `The store ${file} could not be read or written: ${e.message}. Retry later.`, { cause: e, details: { file } });
}

// Table names come from this fixed list only, never from input.
function table(c: Collection): Collection {
  if (!COLLECTIONS.includes(c)) throw new Error(`unknown collection ${String(c)}`);
  return c;
}
