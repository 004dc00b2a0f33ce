import type { Observable } from 'rxjs';

/** Job status values (the platform's JobStatus). */
export type JobStatus = 'SCHEDULED' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'STOPPED';

/** One document that failed, as listed in the job summary. */
export interface DocumentFailure {
  record_id: string;
  filename: string;
  /** Node name (or `source` / `destination:<type>`) where it failed. */
  node: string;
  code: string;
  message: string;
}

/**
 * Something a node warned about while processing one document, which it still finished: an OCR
 * language without installed data, a page that could not be read.
 */
export interface DocumentWarning {
  record_id: string;
  filename: string;
  node: string;
  message: string;
  /** The fields the node logged with the warning (`pages`, ...). */
  details?: Record<string, unknown>;
}

/** Per-node counters. */
export interface NodeStats {
  node: string;
  type: string;
  subtype: string;
  /** Documents the node finished. */
  success: number;
  /** Documents that failed in this node. */
  failure: number;
  /** Total milliseconds spent in the node. */
  ms: number;
}

/** What a finished job reports. */
export interface JobSummary {
  job_id: string;
  status: JobStatus;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  counts: {
    /** Documents the source offered. */
    total: number;
    /** Documents written to every destination. */
    written: number;
    failed: number;
    /** Unchanged since the last run (`reprocess_all: false`). */
    skipped: number;
    /** Not finished because the job was cancelled. */
    stopped: number;
    /** Elements written, over all documents. */
    elements: number;
  };
  failures: DocumentFailure[];
  /** Warnings of documents, in the order they came; absent when there were none. */
  warnings?: DocumentWarning[];
  nodes: NodeStats[];
  /** Set when the job itself could not run (source missing, destination prepare failed, ...). */
  error?: { code: string; message: string };
}

/** Events a job emits, in order per document. */
export type JobEvent =
  | { type: 'job_started'; job_id: string; at: string; total?: number }
  | { type: 'document_started'; record_id: string; filename: string }
  | { type: 'node_finished'; record_id: string; node: string; ms: number; elements: number }
  | { type: 'node_stalled'; record_id: string; node: string; ms: number }
  | ({ type: 'document_warning' } & DocumentWarning)
  | { type: 'document_skipped'; record_id: string; filename: string; version?: string }
  | ({ type: 'document_failed' } & DocumentFailure)
  | { type: 'document_written'; record_id: string; filename: string; elements: number; ms: number }
  | { type: 'document_stopped'; record_id: string; filename: string }
  | { type: 'job_finished'; summary: JobSummary };

/** A running job. */
export interface Job {
  readonly id: string;
  /** Every event of the job; completes after `job_finished`. Subscribe synchronously to see all. */
  readonly events$: Observable<JobEvent>;
  /** Resolves with the summary when the job ends (never rejects). */
  readonly done: Promise<JobSummary>;
  /** Stops pulling documents; in-flight documents are abandoned before their write; ends STOPPED. */
  cancel(): void;
}
