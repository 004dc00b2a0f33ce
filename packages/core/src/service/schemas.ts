import { z } from 'zod';
import { NODE_TYPES } from '../plugin/types.js';
import { WORKFLOW_TYPES } from '../workflow/workflow-fields.js';

/**
 * Zod schemas of what the workflow service accepts and returns. They type the service API and are
 * the source of the REST service's OpenAPI document.
 */

/** Workflow status values: `inactive` blocks scheduled and manual runs. */
export const WORKFLOW_STATUSES = ['active', 'inactive'] as const;
/** A workflow status. */
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

/** Job status values, in lifecycle order (SCHEDULED -> IN_PROGRESS -> COMPLETED | FAILED | STOPPED). */
export const JOB_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'COMPLETED', 'FAILED', 'STOPPED'] as const;

/** How a job was started: a manual run, a schedule tick, or an on-demand job (nodes or template). */
export const JOB_TYPES = ['persistent', 'scheduled', 'ephemeral', 'template'] as const;
/** A job type. */
export type JobType = (typeof JOB_TYPES)[number];

/** `processing_status` of job details. */
export const JOB_PROCESSING_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'SUCCESS', 'COMPLETED_WITH_ERRORS', 'STOPPED', 'FAILED'] as const;

const isoDate = z.string().describe('ISO 8601 date-time (UTC)');
const nonEmpty = z.string().min(1);

/** A node as returned: with its id. */
export const workflowNodeInformation = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(NODE_TYPES),
    subtype: z.string(),
    settings: z.record(z.string(), z.unknown()),
  })
  .meta({ title: 'WorkflowNode' });

/** `workflow_information`: a workflow as returned by create, get, list and update. */
export const workflowInformation = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(WORKFLOW_STATUSES),
    workflow_type: z.enum(WORKFLOW_TYPES),
    sources: z.array(z.string()).describe('source connector ids; empty for a local source'),
    destinations: z.array(z.string()).describe('destination connector ids; empty for a local destination'),
    schedule: z
      .object({ crontab_entries: z.array(z.object({ cron_expression: z.string() })) })
      .describe('crontab_entries is empty when the workflow has no schedule'),
    workflow_nodes: z.array(workflowNodeInformation),
    reprocess_all: z.boolean(),
    template_id: z.string().optional().describe('set for workflow_type "template"'),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ title: 'WorkflowInformation' });
/** A workflow as returned. */
export type WorkflowInformation = z.output<typeof workflowInformation>;

/** Extra field of the workflow create and update bodies (not in the Unstructured workflow API): the status toggle. */
export const workflowStatusField = z.enum(WORKFLOW_STATUSES).describe('active (default) or inactive; inactive blocks scheduled and manual runs');

/** A source or destination connector as returned; secret config values are masked. */
export const connectorInformation = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.string(),
    config: z.record(z.string(), z.unknown()).describe('as given, with every secret value replaced by "********"'),
    created_at: isoDate,
    updated_at: isoDate,
  })
  .meta({ title: 'ConnectorInformation' });
/** A connector as returned. */
export type ConnectorInformation = z.output<typeof connectorInformation>;

/** Body of POST /sources and POST /destinations. */
export const connectorCreateBody = z
  .strictObject({
    name: nonEmpty.describe('unique connector name (per workspace and kind)'),
    type: nonEmpty.describe('connector type, e.g. search_index or local'),
    config: z.record(z.string(), z.unknown()).describe("checked against the connector type's config schema"),
  })
  .meta({ title: 'ConnectorCreate' });
/** A connector create body. */
export type ConnectorCreateBody = z.output<typeof connectorCreateBody>;

/** Body of PUT /sources/{id} and PUT /destinations/{id}. */
export const connectorUpdateBody = z
  .strictObject({
    config: z.record(z.string(), z.unknown()).describe('the whole new config; a secret given as "********" keeps its stored value'),
    name: nonEmpty.optional().describe('new name (optional)'),
  })
  .meta({ title: 'ConnectorUpdate' });
/** A connector update body. */
export type ConnectorUpdateBody = z.output<typeof connectorUpdateBody>;

/** A connection check of a connector (POST/GET /sources/{id}/connection-check). */
export const connectionCheck = z
  .object({
    id: z.string(),
    status: z.enum(['SCHEDULED', 'SUCCESS', 'FAILURE']),
    reason: z.string().optional().describe('why the check failed'),
    created_at: isoDate,
    reported_at: isoDate.optional(),
  })
  .meta({ title: 'ConnectionCheck' });
/** A connection check. */
export type ConnectionCheck = z.output<typeof connectionCheck>;

/** One output file of a job, downloadable with GET /jobs/{id}/download?file_id=…&node_id=…. */
export const outputNodeFile = z.object({ node_id: z.string(), file_id: z.string(), node_type: z.string(), node_subtype: z.string() });

/** A job as returned. */
export const jobInformation = z
  .object({
    id: z.string(),
    workflow_id: z.string(),
    workflow_name: z.string(),
    status: z.enum(JOB_STATUSES),
    job_type: z.enum(JOB_TYPES),
    created_at: isoDate,
    started_at: isoDate.optional(),
    finished_at: isoDate.optional(),
    runtime: z.string().optional().describe('ISO 8601 duration from start to end, e.g. PT2.5S'),
    input_file_ids: z.array(z.string()),
    output_node_files: z.array(outputNodeFile).describe('files kept for download (jobs with a local destination)'),
    message: z.string().optional(),
  })
  .meta({ title: 'JobInformation' });
/** A job as returned. */
export type JobInformation = z.output<typeof jobInformation>;

/** Per-node document counts of a job. */
export const nodeStat = z.object({
  node_name: z.string(),
  node_type: z.string(),
  node_subtype: z.string(),
  ready: z.number().int().describe('documents started but not yet at this node'),
  in_progress: z.number().int(),
  success: z.number().int(),
  failure: z.number().int(),
});
/** Per-node document counts. */
export type NodeStat = z.output<typeof nodeStat>;

/** A warning about one document that was still processed (an OCR language without data, say). */
export const documentWarning = z.object({ document: z.string(), node: z.string(), warning: z.string() });
/** A document's warning. */
export type DocumentWarningView = z.output<typeof documentWarning>;

/** GET /jobs/{id}/details. */
export const jobDetails = z
  .object({
    id: z.string(),
    processing_status: z.enum(JOB_PROCESSING_STATUSES),
    message: z.string().optional(),
    node_stats: z.array(nodeStat),
    /** quarry's addition: the documents' warnings, once the job ended; absent when there were none. */
    warnings: z.array(documentWarning).optional(),
  })
  .meta({ title: 'JobDetails' });
/** Job details. */
export type JobDetails = z.output<typeof jobDetails>;

/** One document that failed. */
export const failedFile = z.object({ document: z.string(), error: z.string() });
/** A failed document. */
export type FailedFile = z.output<typeof failedFile>;

/** GET /jobs/{id}/failed-files. */
export const jobFailedFiles = z.object({ failed_files: z.array(failedFile) }).meta({ title: 'JobFailedFiles' });
/** Failed files of a job. */
export type JobFailedFiles = z.output<typeof jobFailedFiles>;

/** POST /jobs/{id}/cancel. */
export const cancelJobResponse = z.object({ id: z.string(), status: z.literal('cancelled'), message: z.string() }).meta({ title: 'CancelJobResponse' });
/** The answer of a cancel. */
export type CancelJobResponse = z.output<typeof cancelJobResponse>;

/** DELETE of a workflow or connector. */
export const deleteResponse = z.object({ id: z.string(), deleted: z.literal(true) }).meta({ title: 'DeleteResponse' });
/** The answer of a delete. */
export type DeleteResponse = z.output<typeof deleteResponse>;

/** A template in the list. */
export const templateListItem = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    version: z.string(),
    last_updated: isoDate,
    available: z.boolean().describe('true when every node of the template is registered in this service'),
    requires: z.array(z.string()).describe('type/subtype of the template nodes this service does not provide'),
  })
  .meta({ title: 'TemplateListItem' });
/** A template in the list. */
export type TemplateListItem = z.output<typeof templateListItem>;

/** A template with its nodes. */
export const templateDetail = templateListItem.extend({ nodes: z.array(workflowNodeInformation) }).meta({ title: 'TemplateDetail' });
/** A template with its nodes. */
export type TemplateDetail = z.output<typeof templateDetail>;

/** `request_data` of an on-demand job (POST /jobs): a template or a node list. */
export const onDemandRequestData = z
  .strictObject({
    template_id: nonEmpty.optional(),
    job_nodes: z.array(z.unknown()).optional().describe('workflow nodes, as in workflow_nodes'),
    skip_preflight: z.boolean().optional().describe('accepted for SDK compatibility; quarry always validates first'),
  })
  .meta({ title: 'OnDemandJobRequest' });
/** An on-demand job request. */
export type OnDemandRequestData = z.output<typeof onDemandRequestData>;

const dateParam = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO 8601 date or date-time' });
const pagination = {
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
  page_size: z.coerce.number().int().min(1).max(1000).default(100),
  sort_direction: z.enum(['asc', 'desc']).default('desc'),
};

/** Query of GET /workflows. `name` matches a case-insensitive substring. */
export const workflowListQuery = z.object({
  source_id: nonEmpty.optional(),
  destination_id: nonEmpty.optional(),
  status: z.enum(WORKFLOW_STATUSES).optional(),
  name: nonEmpty.optional(),
  created_since: dateParam.optional(),
  created_before: dateParam.optional(),
  sort_by: z.enum(['created_at', 'updated_at', 'name', 'id']).default('created_at'),
  ...pagination,
});
/** Parsed workflow list query. */
export type WorkflowListQuery = z.output<typeof workflowListQuery>;

/** Job status spellings accepted in list filters: any case, blanks or underscores (and the docs' "im progress"). */
const jobStatusParam = z.string().transform((s, ctx) => {
  const norm = s
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_')
    .replace(/^IM_PROGRESS$/, 'IN_PROGRESS');
  if ((JOB_STATUSES as readonly string[]).includes(norm)) return norm as (typeof JOB_STATUSES)[number];
  ctx.addIssue({ code: 'custom', message: `status must be one of ${JOB_STATUSES.join(', ')} (any case)` });
  return z.NEVER;
});

/** Query of GET /jobs. */
export const jobListQuery = z.object({
  workflow_id: nonEmpty.optional(),
  status: jobStatusParam.optional(),
  sort_by: z.enum(['created_at', 'id', 'status']).default('created_at'),
  ...pagination,
});
/** Parsed job list query. */
export type JobListQuery = z.output<typeof jobListQuery>;

/** Query of GET /sources (`source_type`) and GET /destinations (`destination_type`), normalised to `type`. */
export const connectorListQuery = z.object({
  type: nonEmpty.optional(),
  sort_by: z.enum(['created_at', 'name', 'id']).default('created_at'),
  ...pagination,
});
/** Parsed connector list query. */
export type ConnectorListQuery = z.output<typeof connectorListQuery>;

/** Query of GET /jobs/{id}/download. */
export const downloadQuery = z.object({
  file_id: nonEmpty.describe('an input file id (see input_file_ids / output_node_files)'),
  node_id: nonEmpty.optional().describe("the node whose output to fetch; only the last node's output is kept"),
});
/** Parsed download query. */
export type DownloadQuery = z.output<typeof downloadQuery>;
