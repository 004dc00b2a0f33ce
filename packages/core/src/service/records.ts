import type { JobStatus, JobSummary } from '../runtime/events.js';
import type { NodeType } from '../plugin/types.js';
import type { SchedulePhrase } from '../workflow/schedule.js';
import type { WorkflowType } from '../workflow/workflow-fields.js';
import type { DocumentWarningView, FailedFile, JobType, NodeStat, WorkflowStatus } from './schemas.js';

/** What every stored row has. `workspace` scopes every read: a key sees only its workspace's rows. */
export interface StoredRecord {
  id: string;
  workspace: string;
  /** ISO 8601. */
  created_at: string;
}

/** A workflow node as stored: validated, with its id. */
export interface StoredNode {
  id: string;
  name: string;
  type: NodeType;
  subtype: string;
  settings: Record<string, unknown>;
}

/** A stored workflow. */
export interface WorkflowRecord extends StoredRecord {
  name: string;
  status: WorkflowStatus;
  workflow_type: WorkflowType;
  source_id?: string;
  destination_id?: string;
  template_id?: string;
  /** The nodes that run: the workflow's own, or the template's copied at create/update. */
  workflow_nodes: StoredNode[];
  schedule?: SchedulePhrase;
  reprocess_all: boolean;
  /** An on-demand job's workflow: never updated, deleted when its job ends. */
  ephemeral: boolean;
  updated_at: string;
  /** The last schedule slot that fired (ISO 8601), so a restart never fires it again. */
  last_scheduled_run?: string;
}

/** Source or destination. */
export type ConnectorKind = 'source' | 'destination';

/** A stored connector; `config` holds secrets in clear and is never returned as is. */
export interface ConnectorRecord extends StoredRecord {
  kind: ConnectorKind;
  name: string;
  type: string;
  config: Record<string, unknown>;
  updated_at: string;
}

/** An uploaded input file of a job. */
export interface JobInputFile {
  file_id: string;
  filename: string;
}

/** A document a job wrote and kept for download. */
export interface JobOutputFile {
  file_id: string;
  record_id: string;
}

/** A node of the job's plan, as recorded when the job was created. */
export interface JobNode {
  id: string;
  name: string;
  type: string;
  subtype: string;
}

/** A stored job. */
export interface JobRecord extends StoredRecord {
  workflow_id: string;
  workflow_name: string;
  status: JobStatus;
  job_type: JobType;
  started_at?: string;
  finished_at?: string;
  message?: string;
  input_files: JobInputFile[];
  /** Outputs kept for download (empty unless the destination is local). */
  outputs: JobOutputFile[];
  /** True when the job keeps its output for download. */
  keeps_output: boolean;
  nodes: JobNode[];
  node_stats: NodeStat[];
  failed_files: FailedFile[];
  /** The documents' warnings, when the job ended with any. */
  warnings?: DocumentWarningView[];
  counts?: JobSummary['counts'];
}
