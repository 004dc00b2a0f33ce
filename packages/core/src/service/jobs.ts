import { randomUUID } from 'node:crypto';
import { checkInputLimits, jobDirs, outputPath, type InputFile } from './job-files.js';
import { startJob } from './job-lifecycle.js';
import { sortAndPage } from './list-page.js';
import { parseOnDemandRequest } from './on-demand-request.js';
import type { JobRecord, WorkflowRecord } from './records.js';
import { parseRequest } from './request-problems.js';
import { downloadQuery, jobListQuery, type CancelJobResponse, type JobDetails, type JobFailedFiles, type JobInformation } from './schemas.js';
import type { ServiceContext } from './service-context.js';
import { notFound, serviceError } from './service-errors.js';
import { jobDetails, jobInformation } from './views.js';

// The jobs of `WorkflowService`: listing and reading them, cancelling one, downloading a kept
// output, and on-demand jobs (a job over uploaded files with a workflow of its own).

/** A kept output file to send back. */
export interface JobDownload {
  /** Absolute path of the JSON file of elements. */
  path: string;
  /** Suggested file name: the input's name plus `.json`. */
  filename: string;
  contentType: 'application/json';
}

async function jobRecord(ctx: ServiceContext, workspace: string, id: string): Promise<JobRecord> {
  const j = await ctx.store.get('jobs', workspace, id);
  if (!j) throw notFound('Job', id);
  return j;
}

/** See `WorkflowService.listJobs`. */
export async function listJobs(ctx: ServiceContext, workspace: string, query: unknown): Promise<JobInformation[]> {
  const q = parseRequest(jobListQuery, query, 'query');
  const rows = await ctx.store.list('jobs', {
    workspace,
    ...(q.workflow_id ? { workflowId: q.workflow_id } : {}),
    ...(q.status ? { statuses: [q.status] } : {}),
  });
  return sortAndPage(rows, q, (j, k) => j[k]).map(jobInformation);
}

/** See `WorkflowService.getJob`. */
export async function getJob(ctx: ServiceContext, workspace: string, id: string): Promise<JobInformation> {
  return jobInformation(await jobRecord(ctx, workspace, id));
}

/** See `WorkflowService.waitForJob`. */
export async function waitForJob(ctx: ServiceContext, workspace: string, id: string): Promise<JobInformation> {
  await jobRecord(ctx, workspace, id);
  await ctx.runner.waitFor(id);
  return getJob(ctx, workspace, id);
}

/** See `WorkflowService.getJobDetails`. */
export async function getJobDetails(ctx: ServiceContext, workspace: string, id: string): Promise<JobDetails> {
  const job = await jobRecord(ctx, workspace, id);
  return jobDetails(job, ctx.runner.liveStats(id));
}

/** See `WorkflowService.getFailedFiles`. */
export async function getFailedFiles(ctx: ServiceContext, workspace: string, id: string): Promise<JobFailedFiles> {
  return { failed_files: (await jobRecord(ctx, workspace, id)).failed_files };
}

/** See `WorkflowService.cancelJob`. */
export async function cancelJob(ctx: ServiceContext, workspace: string, id: string): Promise<CancelJobResponse> {
  const job = await jobRecord(ctx, workspace, id);
  if (!(await ctx.runner.cancel(id)))
    throw serviceError('JOB_FINISHED', `job ${id} already ended (${job.status}); there is nothing to cancel`, { id, status: job.status });
  return { id, status: 'cancelled', message: 'Job successfully cancelled.' };
}

/** See `WorkflowService.downloadJobOutput`. */
export async function downloadJobOutput(ctx: ServiceContext, workspace: string, id: string, query: unknown): Promise<JobDownload> {
  const q = parseRequest(downloadQuery, query, 'query');
  const job = await jobRecord(ctx, workspace, id);
  if (!job.keeps_output)
    throw serviceError('NOT_FOUND', `job ${id} wrote to a remote destination; only jobs with a local destination keep output for download`, { id });
  const last = job.nodes[job.nodes.length - 1];
  if (q.node_id && q.node_id !== last?.id)
    throw serviceError('NOT_FOUND', `node ${q.node_id} has no kept output in job ${id}; only the last node's output (node ${last?.id}) is kept`, {
      id,
      node_id: q.node_id,
    });
  const out = job.outputs.find((o) => o.file_id === q.file_id);
  if (!out)
    throw serviceError('NOT_FOUND', `file ${q.file_id} has no output in job ${id}${job.status === 'IN_PROGRESS' || job.status === 'SCHEDULED' ? ' yet' : ''}`, {
      id,
      file_id: q.file_id,
    });
  const input = job.input_files.find((f) => f.file_id === out.file_id);
  const base = input ? input.filename : (out.record_id.split('/').pop() ?? out.file_id);
  return { path: outputPath(jobDirs(ctx.dataDir, id).output, out.file_id), filename: `${base}.json`, contentType: 'application/json' };
}

/** See `WorkflowService.createOnDemandJob`. */
export async function createOnDemandJob(
  ctx: ServiceContext,
  workspace: string,
  requestData: unknown,
  inputFiles: readonly InputFile[],
): Promise<JobInformation> {
  const req = parseOnDemandRequest(requestData, inputFiles.length, { engine: ctx.engine, templates: ctx.templates, now: ctx.clock.now() });
  await checkInputLimits(inputFiles, ctx.limits);
  const now = ctx.clock.now().toISOString();
  const id = randomUUID();
  const wf: WorkflowRecord = {
    id,
    workspace,
    name: `on-demand ${id.slice(0, 8)}`,
    status: 'active',
    workflow_type: req.templateId ? 'template' : 'custom',
    ...(req.templateId ? { template_id: req.templateId } : {}),
    workflow_nodes: req.nodes,
    reprocess_all: true,
    ephemeral: true,
    created_at: now,
    updated_at: now,
  };
  await ctx.store.put('workflows', wf);
  try {
    return await startJob(ctx, wf, req.templateId ? 'template' : 'ephemeral', inputFiles);
  } catch (e) {
    await ctx.store.delete('workflows', workspace, id);
    throw e;
  }
}
