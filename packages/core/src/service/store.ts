import type { ConnectorRecord, JobRecord, WorkflowRecord } from './records.js';

/** The record types of each collection. */
export interface CollectionRecords {
  workflows: WorkflowRecord;
  sources: ConnectorRecord;
  destinations: ConnectorRecord;
  jobs: JobRecord;
}

/** A collection of the store. */
export type Collection = keyof CollectionRecords;

/** The collections, for stores that create one table each. */
export const COLLECTIONS: readonly Collection[] = ['workflows', 'sources', 'destinations', 'jobs'];

/** Filters of {@link Store.list}; every given filter must match. */
export interface StoreQuery {
  /** Only rows of this workspace. Omitted only by the service's own start-up recovery. */
  workspace?: string;
  /** Jobs only: rows of this workflow. */
  workflowId?: string;
  /** Jobs only: rows with one of these statuses. */
  statuses?: readonly string[];
}

/**
 * Where the workflow service keeps its rows. Every row carries its `workspace`, and reads by id
 * take the workspace too, so a row of another workspace is simply not found. Implementations:
 * `MemoryStore` (here) and the SQLite store of `@quarry/server`. Run `storeConformance` from the
 * core tests against a new implementation.
 */
export interface Store {
  /** One row by id within a workspace; undefined when absent or of another workspace. */
  get<C extends Collection>(collection: C, workspace: string, id: string): Promise<CollectionRecords[C] | undefined>;
  /** Rows matching `query`, oldest first (by `created_at`, then id). */
  list<C extends Collection>(collection: C, query: StoreQuery): Promise<Array<CollectionRecords[C]>>;
  /** Inserts or replaces a row (by id). */
  put<C extends Collection>(collection: C, record: CollectionRecords[C]): Promise<void>;
  /** Deletes a row; false when there was none in this workspace. */
  delete(collection: Collection, workspace: string, id: string): Promise<boolean>;
  /** The version of a document last written by a workflow (incremental runs). */
  getDocumentVersion(workspace: string, workflowId: string, recordId: string): Promise<string | undefined>;
  /** Records the version of a document a workflow wrote. */
  setDocumentVersion(workspace: string, workflowId: string, recordId: string, version: string): Promise<void>;
  /** Forgets every document version of a workflow (when it is deleted). */
  deleteDocumentVersions(workspace: string, workflowId: string): Promise<void>;
  /** Releases resources (file handles); the store is unusable afterwards. */
  close(): Promise<void>;
}
