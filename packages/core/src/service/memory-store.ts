import { COLLECTIONS, type Collection, type CollectionRecords, type Store, type StoreQuery } from './store.js';

type AnyRecord = CollectionRecords[Collection];

/** Compares rows the way every store orders lists: oldest first, then by id. */
export function compareCreated(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * A {@link Store} in memory, for tests and short-lived hosts. Rows are deep-copied in and out, so a
 * caller never mutates a stored row by accident (as with a real database).
 */
export class MemoryStore implements Store {
  private readonly rows = new Map<Collection, Map<string, AnyRecord>>(COLLECTIONS.map((c) => [c, new Map()]));
  private readonly versions = new Map<string, string>();
  private closed = false;

  private table(c: Collection): Map<string, AnyRecord> {
    if (this.closed) throw new Error('MemoryStore is closed');
    const t = this.rows.get(c);
    if (!t) throw new Error(`unknown collection ${String(c)}`);
    return t;
  }

  async get<C extends Collection>(collection: C, workspace: string, id: string): Promise<CollectionRecords[C] | undefined> {
    const row = this.table(collection).get(id);
    return row && row.workspace === workspace ? (structuredClone(row) as CollectionRecords[C]) : undefined;
  }

  async list<C extends Collection>(collection: C, query: StoreQuery): Promise<Array<CollectionRecords[C]>> {
    const out: Array<CollectionRecords[C]> = [];
    for (const row of this.table(collection).values()) {
      if (query.workspace !== undefined && row.workspace !== query.workspace) continue;
      if (query.workflowId !== undefined && (row as { workflow_id?: string }).workflow_id !== query.workflowId) continue;
      if (query.statuses !== undefined && !query.statuses.includes((row as { status?: string }).status ?? '')) continue;
      out.push(structuredClone(row) as CollectionRecords[C]);
    }
    return out.sort(compareCreated);
  }

  async put<C extends Collection>(collection: C, record: CollectionRecords[C]): Promise<void> {
    const t = this.table(collection);
    const existing = t.get(record.id);
    // Ids are unique across workspaces; a row never moves to another workspace.
    if (existing && existing.workspace !== record.workspace) throw new Error(`id ${record.id} belongs to another workspace`);
    t.set(record.id, structuredClone(record));
  }

  async delete(collection: Collection, workspace: string, id: string): Promise<boolean> {
    const t = this.table(collection);
    const row = t.get(id);
    if (!row || row.workspace !== workspace) return false;
    return t.delete(id);
  }

  async getDocumentVersion(workspace: string, workflowId: string, recordId: string): Promise<string | undefined> {
    return this.versions.get(versionKey(workspace, workflowId, recordId));
  }

  async setDocumentVersion(workspace: string, workflowId: string, recordId: string, version: string): Promise<void> {
    this.versions.set(versionKey(workspace, workflowId, recordId), version);
  }

  async deleteDocumentVersions(workspace: string, workflowId: string): Promise<void> {
    const prefix = versionKey(workspace, workflowId, '');
    for (const k of [...this.versions.keys()]) if (k.startsWith(prefix)) this.versions.delete(k);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function versionKey(workspace: string, workflowId: string, recordId: string): string {
  return `${workspace}\u0000${workflowId}\u0000${recordId}`;
}
