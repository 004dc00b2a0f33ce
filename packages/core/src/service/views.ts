import { SCHEDULE_PHRASES } from '../workflow/schedule.js';
import { isoDuration } from './job-runner.js';
import type { ConnectorRecord, JobRecord, StoredNode, WorkflowRecord } from './records.js';
import type { ConnectorInformation, JobDetails, JobInformation, NodeStat, WorkflowInformation } from './schemas.js';
import { maskSecrets } from './secrets.js';

/** A node as returned: its secret settings masked. */
export function nodeInformation(n: StoredNode): StoredNode {
  return { id: n.id, name: n.name, type: n.type, subtype: n.subtype, settings: maskSecrets(n.settings) };
}

/** `workflow_information` of a stored workflow. */
export function workflowInformation(w: WorkflowRecord): WorkflowInformation {
  return {
    id: w.id,
    name: w.name,
    status: w.status,
    workflow_type: w.workflow_type,
    sources: w.source_id ? [w.source_id] : [],
    destinations: w.destination_id ? [w.destination_id] : [],
    schedule: { crontab_entries: w.schedule ? [{ cron_expression: SCHEDULE_PHRASES[w.schedule] }] : [] },
    workflow_nodes: w.workflow_nodes.map(nodeInformation),
    reprocess_all: w.reprocess_all,
    ...(w.template_id ? { template_id: w.template_id } : {}),
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

/** A connector as returned: secrets masked. */
export function connectorInformation(c: ConnectorRecord): ConnectorInformation {
  return { id: c.id, name: c.name, type: c.type, config: maskSecrets(c.config), created_at: c.created_at, updated_at: c.updated_at };
}

/** A job as returned. Kept outputs are listed against the last node, whose output they are. */
export function jobInformation(j: JobRecord): JobInformation {
  const last = j.nodes[j.nodes.length - 1];
  return {
    id: j.id,
    workflow_id: j.workflow_id,
    workflow_name: j.workflow_name,
    status: j.status,
    job_type: j.job_type,
    created_at: j.created_at,
    ...(j.started_at ? { started_at: j.started_at } : {}),
    ...(j.finished_at ? { finished_at: j.finished_at } : {}),
    ...(j.started_at && j.finished_at ? { runtime: isoDuration(Date.parse(j.finished_at) - Date.parse(j.started_at)) } : {}),
    input_file_ids: j.input_files.map((f) => f.file_id),
    output_node_files: last ? j.outputs.map((o) => ({ node_id: last.id, file_id: o.file_id, node_type: last.type, node_subtype: last.subtype })) : [],
    ...(j.message ? { message: j.message } : {}),
  };
}

/** The platform's processing status: COMPLETED splits into SUCCESS and COMPLETED_WITH_ERRORS. */
export function processingStatus(j: JobRecord): JobDetails['processing_status'] {
  if (j.status === 'COMPLETED') return j.failed_files.length > 0 ? 'COMPLETED_WITH_ERRORS' : 'SUCCESS';
  return j.status;
}

/** Job details, with live statistics for a job still running. */
export function jobDetails(j: JobRecord, live: NodeStat[] | undefined): JobDetails {
  return {
    id: j.id,
    processing_status: processingStatus(j),
    ...(j.message ? { message: j.message } : {}),
    node_stats: live ?? j.node_stats,
    ...(j.warnings ? { warnings: j.warnings } : {}),
  };
}
