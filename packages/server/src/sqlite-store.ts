import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { COLLECTIONS, type Collection, type CollectionRecords, type Store, type StoreQuery } from '@quarry/core';

/** Bumped when the table layout changes; the store refuses a newer database than it knows. */
const SCHEMA_VERSION = 1;

/**
 * The default {@link Store}: one embedded SQLite file (better-sqlite3, WAL journal). Each
 * collection is a table with the columns reads filter on (`workspace`, `created_at`, and for jobs
 * `workflow_id` and `status`) and the row as JSON in `data`. better-sqlite3 is synchronous: every
 * call finishes before it returns, which also makes each write atomic.
 *
 * @example
 * ```ts
 * const store = SqliteStore.open('/var/lib/quarry/quarry.db');
 * const service = await WorkflowService.open({ engine, store, dataDir: '/var/lib/quarry' });
 * ```
 */
export class SqliteStore implements Store {
  private constructor(private readonly db: Database.Database) {}

  /** Opens (creating when missing) the database file; `:memory:` gives a private in-memory database. */
  static open(file: string): SqliteStore {
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION) {
      db.close();
      throw new Error(`${file} was written by a newer quarry (schema ${version}; this one knows ${SCHEMA_VERSION})`);
    }
    db.exec(
      COLLECTIONS.map(
        (c) => `CREATE TABLE IF NOT EXISTS ${c} (id TEXT PRIMARY KEY, workspace TEXT NOT NULL, created_at TEXT NOT NULL, workflow_id TEXT, status TEXT, data TEXT NOT NULL);
          CREATE INDEX IF NOT EXISTS ${c}_by_workspace ON ${c} (workspace, created_at, id);`,
      ).join('\n') +
        `CREATE INDEX IF NOT EXISTS jobs_by_workflow ON jobs (workspace, workflow_id);
         CREATE INDEX IF NOT EXISTS jobs_by_status ON jobs (status);
         CREATE TABLE IF NOT EXISTS document_versions (workspace TEXT NOT NULL, workflow_id TEXT NOT NULL, record_id TEXT NOT NULL, version TEXT NOT NULL, PRIMARY KEY (workspace, workflow_id, record_id)) WITHOUT ROWID;
         PRAGMA user_version = ${SCHEMA_VERSION};`,
    );
    return new SqliteStore(db);
  }

  async get<C extends Collection>(collection: C, workspace: string, id: string): Promise<CollectionRecords[C] | undefined> {
    const row = this.db.prepare(`SELECT data FROM ${table(collection)} WHERE id = ? AND workspace = ?`).get(id, workspace) as { data: string } | undefined;
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
    return (this.db.prepare(sql).all(...args) as Array<{ data: string }>).map((r) => JSON.parse(r.data) as CollectionRecords[C]);
  }

  async put<C extends Collection>(collection: C, record: CollectionRecords[C]): Promise<void> {
    const r = record as { workflow_id?: string; status?: string };
    const result = this.db
      .prepare(
        `INSERT INTO ${table(collection)} (id, workspace, created_at, workflow_id, status, data) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at, workflow_id = excluded.workflow_id, status = excluded.status, data = excluded.data
         WHERE workspace = excluded.workspace`,
      )
      .run(record.id, record.workspace, record.created_at, r.workflow_id ?? null, r.status ?? null, JSON.stringify(record));
    // Ids are unique across workspaces; a row never moves to another workspace.
    if (result.changes === 0) throw new Error(`id ${record.id} belongs to another workspace`);
  }

  async delete(collection: Collection, workspace: string, id: string): Promise<boolean> {
    return this.db.prepare(`DELETE FROM ${table(collection)} WHERE id = ? AND workspace = ?`).run(id, workspace).changes > 0;
  }

  async getDocumentVersion(workspace: string, workflowId: string, recordId: string): Promise<string | undefined> {
    const row = this.db.prepare('SELECT version FROM document_versions WHERE workspace = ? AND workflow_id = ? AND record_id = ?').get(workspace, workflowId, recordId) as { version: string } | undefined;
    return row?.version;
  }

  async setDocumentVersion(workspace: string, workflowId: string, recordId: string, version: string): Promise<void> {
    this.db
      .prepare('INSERT INTO document_versions (workspace, workflow_id, record_id, version) VALUES (?, ?, ?, ?) ON CONFLICT (workspace, workflow_id, record_id) DO UPDATE SET version = excluded.version')
      .run(workspace, workflowId, recordId, version);
  }

  async deleteDocumentVersions(workspace: string, workflowId: string): Promise<void> {
    this.db.prepare('DELETE FROM document_versions WHERE workspace = ? AND workflow_id = ?').run(workspace, workflowId);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}

// Table names come from this fixed list only, never from input.
function table(c: Collection): Collection {
  if (!COLLECTIONS.includes(c)) throw new Error(`unknown collection ${String(c)}`);
  return c;
}
