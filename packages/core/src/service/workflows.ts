import { randomUUID } from 'node:crypto';
import type { InputFile } from './job-files.js';
import { startJob } from './job-lifecycle.js';
import { sortAndPage } from './list-page.js';
import type { WorkflowRecord } from './records.js';
import { parseRequest } from './request-problems.js';
import { schedule } from './schedules.js';
import {
  workflowListQuery,
  type DeleteResponse,
  type JobInformation,
  type TemplateDetail,
  type TemplateListItem,
  type WorkflowInformation,
} from './schemas.js';
import { busyKey, type ServiceContext } from './service-context.js';
import { notFound, serviceError } from './service-errors.js';
import type { WorkflowTemplate } from '../plugin/types.js';
import { nodeInformation, workflowInformation } from './views.js';
import { checkWorkflow } from './workflow-check.js';
import { assignNodeIds } from './workflow-input.js';

// The workflows of `WorkflowService`: create, list, get, update, delete and run (their bodies are
// checked by workflow-check.ts), and the templates they can be made from.

/** Options of a workflow run. */
export interface RunOptions {
  /** Input files of a workflow with a local source (no source_id). */
  inputFiles?: readonly InputFile[];
}

async function workflowRecord(ctx: ServiceContext, workspace: string, id: string): Promise<WorkflowRecord> {
  const wf = await ctx.store.get('workflows', workspace, id);
  if (!wf) throw notFound('Workflow', id);
  return wf;
}

/** See `WorkflowService.createWorkflow`. */
export async function createWorkflow(ctx: ServiceContext, workspace: string, body: unknown): Promise<WorkflowInformation> {
  const { value, nodes, status } = await checkWorkflow(ctx, workspace, body, undefined);
  const now = ctx.clock.now().toISOString();
  const record: WorkflowRecord = {
    id: randomUUID(),
    workspace,
    name: value.name,
    status: status ?? 'active',
    workflow_type: value.workflow_type,
    ...(value.source_id ? { source_id: value.source_id } : {}),
    ...(value.destination_id ? { destination_id: value.destination_id } : {}),
    ...(value.template_id ? { template_id: value.template_id } : {}),
    workflow_nodes: assignNodeIds(nodes),
    ...(value.schedule ? { schedule: value.schedule } : {}),
    reprocess_all: value.reprocess_all,
    ephemeral: false,
    created_at: now,
    updated_at: now,
  };
  await ctx.store.put('workflows', record);
  schedule(ctx, record);
  ctx.logger.info('workflow created', { workspace, workflow_id: record.id });
  return workflowInformation(record);
}

/** See `WorkflowService.listWorkflows`. */
export async function listWorkflows(ctx: ServiceContext, workspace: string, query: unknown): Promise<WorkflowInformation[]> {
  const q = parseRequest(workflowListQuery, query, 'query');
  const since = q.created_since ? Date.parse(q.created_since) : undefined;
  const before = q.created_before ? Date.parse(q.created_before) : undefined;
  const name = q.name?.toLowerCase();
  const rows = (await ctx.store.list('workflows', { workspace })).filter(
    (w) =>
      (!q.source_id || w.source_id === q.source_id) &&
      (!q.destination_id || w.destination_id === q.destination_id) &&
      (!q.status || w.status === q.status) &&
      (!name || w.name.toLowerCase().includes(name)) &&
      (since === undefined || Date.parse(w.created_at) >= since) &&
      (before === undefined || Date.parse(w.created_at) < before),
  );
  return sortAndPage(rows, q, (w, k) => w[k]).map(workflowInformation);
}

/** See `WorkflowService.getWorkflow`. */
export async function getWorkflow(ctx: ServiceContext, workspace: string, id: string): Promise<WorkflowInformation> {
  return workflowInformation(await workflowRecord(ctx, workspace, id));
}

/** See `WorkflowService.updateWorkflow`. */
export async function updateWorkflow(ctx: ServiceContext, workspace: string, id: string, body: unknown): Promise<WorkflowInformation> {
  const stored = await workflowRecord(ctx, workspace, id);
  if (stored.ephemeral) throw serviceError('WORKFLOW_NOT_UPDATABLE', `workflow ${id} belongs to an on-demand job and cannot be updated`, { id });
  const { value, nodes, status } = await checkWorkflow(ctx, workspace, body, stored);
  const sameTemplate = value.workflow_type === 'template' && stored.workflow_type === 'template' && value.template_id === stored.template_id;
  const record: WorkflowRecord = {
    id: stored.id,
    workspace,
    name: value.name,
    status: status ?? stored.status,
    workflow_type: value.workflow_type,
    ...(value.source_id ? { source_id: value.source_id } : {}),
    ...(value.destination_id ? { destination_id: value.destination_id } : {}),
    ...(value.template_id ? { template_id: value.template_id } : {}),
    workflow_nodes: sameTemplate ? stored.workflow_nodes : assignNodeIds(nodes, stored.workflow_nodes),
    ...(value.schedule ? { schedule: value.schedule } : {}),
    reprocess_all: value.reprocess_all,
    ephemeral: false,
    created_at: stored.created_at,
    updated_at: ctx.clock.now().toISOString(),
    ...(stored.last_scheduled_run ? { last_scheduled_run: stored.last_scheduled_run } : {}),
  };
  await ctx.store.put('workflows', record);
  schedule(ctx, record);
  ctx.logger.info('workflow updated', { workspace, workflow_id: id });
  return workflowInformation(record);
}

/** See `WorkflowService.deleteWorkflow`. */
export async function deleteWorkflow(ctx: ServiceContext, workspace: string, id: string): Promise<DeleteResponse> {
  const wf = await workflowRecord(ctx, workspace, id);
  const job = ctx.busy.get(busyKey(workspace, id));
  if (job)
    throw serviceError('WORKFLOW_BUSY', `workflow ${id} has job ${job} scheduled or running; cancel it before deleting the workflow`, { id, job_id: job });
  ctx.scheduler.remove(workspace, id);
  await ctx.store.delete('workflows', workspace, wf.id);
  await ctx.store.deleteDocumentVersions(workspace, wf.id);
  ctx.logger.info('workflow deleted', { workspace, workflow_id: id });
  return { id, deleted: true };
}

/** See `WorkflowService.runWorkflow`. */
export async function runWorkflow(ctx: ServiceContext, workspace: string, id: string, options: RunOptions): Promise<JobInformation> {
  const wf = await workflowRecord(ctx, workspace, id);
  if (wf.status !== 'active') throw serviceError('WORKFLOW_INACTIVE', `workflow ${id} is inactive; set its status to "active" to run it`, { id });
  return startJob(ctx, wf, 'persistent', options.inputFiles ?? []);
}

/** See `WorkflowService.listTemplates`. */
export function listTemplates(ctx: ServiceContext): TemplateListItem[] {
  return [...ctx.templates.values()].map((t) => templateItem(ctx, t));
}

/** See `WorkflowService.getTemplate`. */
export function getTemplate(ctx: ServiceContext, id: string): TemplateDetail {
  const t = ctx.templates.get(id);
  if (!t) throw notFound('Template', id);
  return { ...templateItem(ctx, t), nodes: t.nodes.map(nodeInformation) };
}

function templateItem(ctx: ServiceContext, t: WorkflowTemplate): TemplateListItem {
  const requires = t.nodes.filter((n) => !ctx.engine.registry.findNode(n.type, n.subtype)).map((n) => `${n.type}/${n.subtype}`);
  return { id: t.id, name: t.name, description: t.description, version: t.version, last_updated: t.last_updated, available: requires.length === 0, requires };
}
