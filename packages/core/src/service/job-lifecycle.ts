import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { DestinationInput } from '../engine.js';
import type { StateStore } from '../runtime/state-store.js';
import { connectorRecord } from './connectors.js';
import { runtimeConnectorConfig } from './connector-config.js';
import {
  checkInputLimits,
  jobDirs,
  jobOutputDestination,
  outputFileId,
  stageInputFiles,
  uploadRecordIds,
  uploadedFilesSource,
  type InputFile,
} from './job-files.js';
import type { JobRecord, WorkflowRecord } from './records.js';
import type { JobInformation, JobType, NodeStat } from './schemas.js';
import { collectSecrets } from './secrets.js';
import { busyKey, type ServiceContext } from './service-context.js';
import { problemAt, requestInvalid, serviceError } from './service-errors.js';
import { jobInformation } from './views.js';
import { nodeRefs } from './workflow-input.js';

// The bookkeeping around a job of the service: what its start checks and stores before the runner
// takes it, what its end clears, and what a restart finds of the jobs it interrupted.

const ACTIVE_JOB_STATUSES = ['SCHEDULED', 'IN_PROGRESS'] as const;

/**
 * Starts a job of a workflow: checks its input files, builds its plan and resolves its
 * connectors, marks the workflow busy (`WORKFLOW_BUSY` when it already was), stages the uploads,
 * stores the SCHEDULED record and hands the job to the runner. Undoes the mark and the staged
 * files when any of it fails.
 */
export async function startJob(ctx: ServiceContext, wf: WorkflowRecord, jobType: JobType, inputFiles: readonly InputFile[]): Promise<JobInformation> {
  const { workspace } = wf;
  if (wf.source_id && inputFiles.length) {
    throw requestInvalid('body', [
      problemAt(
        'input.not_allowed',
        ['input_files'],
        `workflow ${wf.id} reads from source ${wf.source_id}; input files apply only to a workflow with a local source (no source_id)`,
      ),
    ]);
  }
  if (!wf.source_id && !inputFiles.length) {
    throw requestInvalid('body', [
      problemAt('schema.required', ['input_files'], `workflow ${wf.id} has a local source: upload the documents to process as input_files`),
    ]);
  }
  await checkInputLimits(inputFiles, ctx.limits);
  const plan = ctx.engine.build({ name: wf.name, nodes: nodeRefs(wf.workflow_nodes), reprocess_all: wf.reprocess_all }, { now: ctx.clock.now() });
  const source = wf.source_id ? await connectorRecord(ctx, workspace, 'source', wf.source_id) : undefined;
  const destination = wf.destination_id ? await connectorRecord(ctx, workspace, 'destination', wf.destination_id) : undefined;

  const key = busyKey(workspace, wf.id);
  const running = ctx.busy.get(key);
  if (running)
    throw serviceError('WORKFLOW_BUSY', `workflow ${wf.id} already has job ${running} scheduled or running; a workflow never runs twice at once`, {
      id: wf.id,
      job_id: running,
    });
  const jobId = randomUUID();
  ctx.busy.set(key, jobId);
  const dirs = jobDirs(ctx.dataDir, jobId);
  try {
    const staged = await stageInputFiles(inputFiles, dirs.input);
    const now = ctx.clock.now().toISOString();
    const keepsOutput = !destination || destination.type === ctx.local.type;
    const uploads = uploadRecordIds(staged);
    const outputs: JobRecord['outputs'] = [];
    const destinations: DestinationInput[] = [];
    if (destination) destinations.push({ type: destination.type, config: runtimeConnectorConfig(destination.type, destination.config, workspace, ctx.local) });
    if (keepsOutput)
      destinations.push(
        jobOutputDestination(
          dirs.output,
          (rid) => outputFileId(rid, uploads),
          (f) => outputs.push(f),
        ),
      );
    const record: JobRecord = {
      id: jobId,
      workspace,
      workflow_id: wf.id,
      workflow_name: wf.name,
      status: 'SCHEDULED',
      job_type: jobType,
      created_at: now,
      input_files: staged.map((f) => ({ file_id: f.file_id, filename: f.filename })),
      outputs: [],
      keeps_output: keepsOutput,
      nodes: wf.workflow_nodes.map((n) => ({ id: n.id, name: n.name, type: n.type, subtype: n.subtype })),
      node_stats: [],
      failed_files: [],
    };
    const statRows = [...record.nodes, { name: 'Destination', type: 'destination', subtype: destination?.type ?? 'local' }];
    record.node_stats = statRows.map((r) => ({
      node_name: r.name,
      node_type: r.type,
      node_subtype: r.subtype,
      ready: 0,
      in_progress: 0,
      success: 0,
      failure: 0,
    }));
    await ctx.store.put('jobs', record);
    const secrets = [
      ...collectSecrets(source?.config ?? {}),
      ...collectSecrets(destination?.config ?? {}),
      ...wf.workflow_nodes.flatMap((n) => collectSecrets(n.settings)),
    ];
    ctx.runner.submit({
      record,
      plan,
      source: source
        ? { type: source.type, config: runtimeConnectorConfig(source.type, source.config, workspace, ctx.local) }
        : uploadedFilesSource(staged, now),
      destinations,
      ...(source && !wf.reprocess_all ? { state: documentVersions(ctx, workspace, wf.id) } : {}),
      secrets,
      statRows,
      outputs,
      ...(staged.length ? { inputDir: dirs.input } : {}),
    });
    return jobInformation(record);
  } catch (e) {
    ctx.busy.delete(key);
    await rm(dirs.root, { recursive: true, force: true });
    throw e;
  }
}

/** The written versions of a workflow's documents, for its incremental runs. */
function documentVersions(ctx: ServiceContext, workspace: string, workflowId: string): StateStore {
  return {
    get: (recordId) => ctx.store.getDocumentVersion(workspace, workflowId, recordId),
    set: (recordId, version) => ctx.store.setDocumentVersion(workspace, workflowId, recordId, version),
  };
}

/** After a job's final record is stored: its workflow may run again, and an on-demand job's workflow goes. */
export async function jobEnded(ctx: ServiceContext, record: JobRecord): Promise<void> {
  const key = busyKey(record.workspace, record.workflow_id);
  if (ctx.busy.get(key) === record.id) ctx.busy.delete(key);
  const wf = await ctx.store.get('workflows', record.workspace, record.workflow_id);
  if (wf?.ephemeral) await ctx.store.delete('workflows', record.workspace, wf.id);
}

// What the job's last checkpoint says it finished (a re-run of an incremental workflow skips the written ones).
function finishedPart(job: JobRecord): string {
  const last = job.node_stats.at(-1);
  if (!last || last.success + last.failure === 0) return '';
  return ` Before it stopped, ${last.success} documents were written and ${job.failed_files.length} failed.`;
}

// Nothing runs after a restart: documents that were at a node count as failed there.
function interrupted(stat: NodeStat): NodeStat {
  return { ...stat, ready: 0, in_progress: 0, failure: stat.failure + stat.in_progress };
}

/**
 * At open: jobs a crash left SCHEDULED or IN_PROGRESS are marked FAILED (their uploads deleted),
 * and the workflows of on-demand jobs left behind are deleted.
 */
export async function recoverJobs(ctx: ServiceContext): Promise<void> {
  const now = ctx.clock.now().toISOString();
  for (const job of await ctx.store.list('jobs', { statuses: ACTIVE_JOB_STATUSES })) {
    const was = job.status;
    job.status = 'FAILED';
    job.finished_at = now;
    job.message = `The service stopped while this job was ${was}; it was marked FAILED when the service started again.${finishedPart(job)}`;
    job.node_stats = job.node_stats.map(interrupted);
    await ctx.store.put('jobs', job);
    await rm(jobDirs(ctx.dataDir, job.id).input, { recursive: true, force: true });
    ctx.logger.warn('job interrupted by a restart marked FAILED', { job_id: job.id, workspace: job.workspace, was });
  }
  for (const wf of await ctx.store.list('workflows', {})) {
    if (wf.ephemeral) await ctx.store.delete('workflows', wf.workspace, wf.id);
  }
}
