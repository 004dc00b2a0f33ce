import type { ConnectorSpec, DocumentFailure, DocumentWarning, PipelineInput, SourceRecord } from '@quarry/core';

/** One queued task: a document of a job, named by its record (the worker reads the bytes itself). */
export interface TaskData {
  job_id: string;
  workflow_id: string;
  workflow_version: string;
  record: SourceRecord;
  /** The coordinator's signature when the job has a shared secret (see `task-mac.ts`). */
  mac?: string;
}

/** Time a node spent on the task's document. */
export interface TaskNodeTime {
  node: string;
  ms: number;
  /** Elements the node handed on. */
  elements: number;
}

/** What a worker reports for a task; the coordinator turns it into the job's events and counts. */
export type TaskResult = (
  | { outcome: 'written'; elements: number; nodes: TaskNodeTime[]; worker: string }
  | { outcome: 'failed'; failure: DocumentFailure; nodes: TaskNodeTime[]; worker: string }
  | { outcome: 'stopped'; nodes: TaskNodeTime[]; worker: string }
) & {
  /** What the nodes warned about for the document (`document_warning` events), when anything. */
  warnings?: DocumentWarning[];
};

/** A job as stored for workers: which workflow version, which connectors, which limits. */
export interface JobSpec {
  job_id: string;
  workflow_id: string;
  workflow_version: string;
  source: ConnectorSpec;
  destinations: ConnectorSpec[];
  stall_warning_ms: number;
  node_timeout_ms: number;
}

/** A workflow version as stored for workers. */
export interface WorkflowRecord {
  workflow: PipelineInput;
}
