import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { DestinationInput, Engine } from '../engine.js';
import { errorMessage, QuarryError } from '../errors.js';
import type { Plan } from '../plan/plan.js';
import type { Logger } from '../plugin/types.js';
import { silentLogger } from '../runtime/logger.js';
import type { StateStore } from '../runtime/state-store.js';
import { scheduleToCron } from '../workflow/schedule.js';
import { validateWorkflow, type ValidWorkflow } from '../workflow/validate-workflow.js';
import { systemClock, type Clock } from './clock.js';
import { probeConnector } from './connection-check.js';
import { connectorConfigProblems, runtimeConnectorConfig, type LocalConnectorPolicy } from './connector-config.js';
import { checkInputLimits, jobDirs, jobOutputDestination, outputFileId, outputPath, stageInputFiles, uploadRecordIds, uploadedFilesSource, type InputFile, type InputLimits } from './job-files.js';
import { JobRunner } from './job-runner.js';
import { sortAndPage } from './list-page.js';
import type { ConnectorKind, ConnectorRecord, JobRecord, StoredNode, WorkflowRecord } from './records.js';
import { parseOnDemandRequest } from './on-demand-request.js';
import { planProblems, templateProblems } from './plan-problems.js';
import { parseRequest, zodProblems } from './request-problems.js';
import {
  connectorCreateBody,
  connectorListQuery,
  connectorUpdateBody,
  downloadQuery,
  jobListQuery,
  workflowListQuery,
  type CancelJobResponse,
  type ConnectionCheck,
  type ConnectorInformation,
  type DeleteResponse,
  type JobDetails,
  type JobFailedFiles,
  type JobInformation,
  type JobType,
  type TemplateDetail,
  type TemplateListItem,
  type WorkflowInformation,
} from './schemas.js';
import { Scheduler } from './scheduler.js';
import { collectSecrets, restoreMaskedSecrets, scrubSecrets } from './secrets.js';
import { notFound, problemAt, requestInvalid, serviceError, type ServiceProblem } from './service-errors.js';
import type { Store } from './store.js';
import { BUILTIN_TEMPLATES, type WorkflowTemplate } from './templates.js';
import { connectorInformation, jobDetails, jobInformation, nodeInformation, workflowInformation } from './views.js';
import { asObject, assignNodeIds, mergeUpdate, nodeRefs, restoreNodeSecrets, splitStatus } from './workflow-input.js';

/** Options of {@link WorkflowService.open}. */
export interface WorkflowServiceOptions {
  /** The engine with every node and connector plugin the service offers. */
  engine: Engine;
  store: Store;
  /** Where job files (uploads, kept outputs) and sandboxed local connector directories live. */
  dataDir: string;
  /** Default: the real clock. Inject a `ManualClock` to move time in tests. */
  clock?: Clock;
  /** Default: silent. Never receives connector configs; job messages are scrubbed of secrets. */
  logger?: Logger;
  /** Default: {@link BUILTIN_TEMPLATES}. */
  templates?: readonly WorkflowTemplate[];
  /** Jobs running at once (default 4); more wait SCHEDULED. */
  maxRunningJobs?: number;
  /** Documents in flight per job (default 4). */
  documentConcurrency?: number;
  /** Input file limits per job (default 10 files of at most 10 MiB). */
  inputLimits?: Partial<InputLimits>;
  /**
   * Services handed to the nodes of every job (`RunOptions.services`): `quarry serve` puts its
   * partition process pool here, so documents are parsed off the service's event loop.
   */
  services?: Map<string, unknown>;
  /** Local filesystem connectors: type `local`, paths sandboxed per workspace under `<dataDir>/workspaces/<workspace>/files` by default. */
  localConnectors?: Partial<LocalConnectorPolicy>;
}

/** Options of a workflow run. */
export interface RunOptions {
  /** Input files of a workflow with a local source (no source_id). */
  inputFiles?: readonly InputFile[];
}

/** A kept output file to send back. */
export interface JobDownload {
  /** Absolute path of the JSON file of elements. */
  path: string;
  /** Suggested file name: the input's name plus `.json`. */
  filename: string;
  contentType: 'application/json';
}

const ACTIVE_JOB_STATUSES = ['SCHEDULED', 'IN_PROGRESS'] as const;
const RESOURCE = { source: 'Source', destination: 'Destination' } as const;
const COLLECTION = { source: 'sources', destination: 'destinations' } as const;

function workflowInvalid(problems: ServiceProblem[]): QuarryError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new QuarryError('WORKFLOW_INVALID', `workflow is invalid: ${first.path || '/'}: ${first.message}${more}`, { details: { location: 'body', problems } });
}

/**
 * The workflow service of SPEC.md as a library: workflows (create, list, get, update, delete,
 * run), templates, source and destination connectors, jobs (list, get, details, failed files,
 * cancel, download), on-demand jobs and schedules. Every method takes the workspace first: rows of
 * other workspaces are never seen. Rows persist through a {@link Store}; the REST service of
 * `@quarry/server` maps HTTP onto these methods.
 *
 * @example
 * ```ts
 * const service = await WorkflowService.open({ engine, store: new MemoryStore(), dataDir: '/tmp/quarry' });
 * const wf = await service.createWorkflow('acme', { name: 'docs', workflow_type: 'custom',
 *   workflow_nodes: [{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] });
 * const job = await service.runWorkflow('acme', wf.id, { inputFiles: [{ filename: 'a.txt', content: bytes }] });
 * console.log((await service.waitForJob('acme', job.id)).status); // COMPLETED
 * await service.close();
 * ```
 */
export class WorkflowService {
  private readonly engine: Engine;
  private readonly store: Store;
  private readonly dataDir: string;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly templates: ReadonlyMap<string, WorkflowTemplate>;
  private readonly limits: InputLimits;
  private readonly local: LocalConnectorPolicy;
  private readonly runner: JobRunner;
  private readonly scheduler: Scheduler;
  /** Workflows with a job queued or running, `workspace\0id` -> job id: a workflow never runs twice at once. */
  private readonly busy = new Map<string, string>();
  /** The last connection check of each connector, `workspace\0kind\0id` (kept in memory only). */
  private readonly checks = new Map<string, ConnectionCheck>();
  private closed = false;

  private constructor(options: WorkflowServiceOptions) {
    this.engine = options.engine;
    this.store = options.store;
    this.dataDir = path.resolve(options.dataDir);
    this.clock = options.clock ?? systemClock;
    this.logger = options.logger ?? silentLogger;
    this.templates = new Map((options.templates ?? BUILTIN_TEMPLATES).map((t) => [t.id, t]));
    this.limits = { maxFiles: options.inputLimits?.maxFiles ?? 10, maxFileBytes: options.inputLimits?.maxFileBytes ?? 10 * 1024 * 1024 };
    const dataDir = this.dataDir;
    this.local = {
      type: options.localConnectors?.type ?? 'local',
      paths: options.localConnectors?.paths ?? 'sandboxed',
      root: options.localConnectors?.root ?? ((ws) => path.join(dataDir, 'workspaces', encodeURIComponent(ws), 'files')),
    };
    this.runner = new JobRunner({
      engine: this.engine,
      ...(options.services ? { services: options.services } : {}),
      store: this.store,
      clock: this.clock,
      logger: this.logger,
      maxRunning: options.maxRunningJobs ?? 4,
      concurrency: options.documentConcurrency ?? 4,
      onEnded: (record) => this.onJobEnded(record),
    });
    this.scheduler = new Scheduler(this.clock, (ws, id, slot) => void this.onScheduleTick(ws, id, slot), this.logger);
  }

  /**
   * Opens the service: jobs a crash left SCHEDULED or IN_PROGRESS are marked FAILED, leftover
   * on-demand workflows are deleted, and the schedules of active workflows start from now (a run
   * missed while the service was down is not replayed).
   */
  static async open(options: WorkflowServiceOptions): Promise<WorkflowService> {
    const service = new WorkflowService(options);
    await service.recover();
    return service;
  }

  private async recover(): Promise<void> {
    const now = this.clock.now().toISOString();
    for (const job of await this.store.list('jobs', { statuses: ACTIVE_JOB_STATUSES })) {
      const was = job.status;
      job.status = 'FAILED';
      job.finished_at = now;
      job.message = `The service stopped while this job was ${was}; it was marked FAILED when the service started again.`;
      await this.store.put('jobs', job);
      await rm(jobDirs(this.dataDir, job.id).input, { recursive: true, force: true });
      this.logger.warn('job interrupted by a restart marked FAILED', { job_id: job.id, workspace: job.workspace, was });
    }
    for (const wf of await this.store.list('workflows', {})) {
      if (wf.ephemeral) await this.store.delete('workflows', wf.workspace, wf.id);
      else this.schedule(wf);
    }
  }

  /** Stops the schedules, cancels queued and running jobs (they end STOPPED) and waits for them. The store stays open. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.scheduler.stop();
    await this.runner.close();
  }

  // ---------------------------------------------------------------- workflows

  /** Creates a workflow (SPEC.md create body, plus an optional `status`). Throws `WORKFLOW_INVALID` listing every problem. */
  async createWorkflow(workspace: string, body: unknown): Promise<WorkflowInformation> {
    const { value, nodes, status } = await this.checkWorkflow(workspace, body, undefined);
    const now = this.clock.now().toISOString();
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
    await this.store.put('workflows', record);
    this.schedule(record);
    this.logger.info('workflow created', { workspace, workflow_id: record.id });
    return workflowInformation(record);
  }

  /** Lists workflows: filters `source_id`, `destination_id`, `status`, `name` (substring, any case), `created_since`, `created_before`; sorting and pages. */
  async listWorkflows(workspace: string, query: unknown = {}): Promise<WorkflowInformation[]> {
    const q = parseRequest(workflowListQuery, query, 'query');
    const since = q.created_since ? Date.parse(q.created_since) : undefined;
    const before = q.created_before ? Date.parse(q.created_before) : undefined;
    const name = q.name?.toLowerCase();
    const rows = (await this.store.list('workflows', { workspace })).filter(
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

  /** One workflow; `NOT_FOUND` when absent from this workspace. */
  async getWorkflow(workspace: string, id: string): Promise<WorkflowInformation> {
    return workflowInformation(await this.workflowRecord(workspace, id));
  }

  /**
   * Updates a workflow: every field optional, null removes it; the merged workflow is validated as
   * a create body. Refused for on-demand workflows (`WORKFLOW_NOT_UPDATABLE`).
   */
  async updateWorkflow(workspace: string, id: string, body: unknown): Promise<WorkflowInformation> {
    const stored = await this.workflowRecord(workspace, id);
    if (stored.ephemeral) throw serviceError('WORKFLOW_NOT_UPDATABLE', `workflow ${id} belongs to an on-demand job and cannot be updated`, { id });
    const { value, nodes, status } = await this.checkWorkflow(workspace, body, stored);
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
      updated_at: this.clock.now().toISOString(),
      ...(stored.last_scheduled_run ? { last_scheduled_run: stored.last_scheduled_run } : {}),
    };
    await this.store.put('workflows', record);
    this.schedule(record);
    this.logger.info('workflow updated', { workspace, workflow_id: id });
    return workflowInformation(record);
  }

  /** Deletes a workflow (its jobs stay listed). Refused while it has a job queued or running. */
  async deleteWorkflow(workspace: string, id: string): Promise<DeleteResponse> {
    const wf = await this.workflowRecord(workspace, id);
    const job = this.busy.get(busyKey(workspace, id));
    if (job) throw serviceError('WORKFLOW_BUSY', `workflow ${id} has job ${job} scheduled or running; cancel it before deleting the workflow`, { id, job_id: job });
    this.scheduler.remove(workspace, id);
    await this.store.delete('workflows', workspace, wf.id);
    await this.store.deleteDocumentVersions(workspace, wf.id);
    this.logger.info('workflow deleted', { workspace, workflow_id: id });
    return { id, deleted: true };
  }

  /**
   * Starts a job of a workflow (returned SCHEDULED or already IN_PROGRESS). A workflow with a local
   * source takes `inputFiles`; others refuse them. Refused for an inactive workflow and while the
   * workflow has a job queued or running.
   */
  async runWorkflow(workspace: string, id: string, options: RunOptions = {}): Promise<JobInformation> {
    const wf = await this.workflowRecord(workspace, id);
    if (wf.status !== 'active') throw serviceError('WORKFLOW_INACTIVE', `workflow ${id} is inactive; set its status to "active" to run it`, { id });
    return this.startJob(wf, 'persistent', options.inputFiles ?? []);
  }

  /** When the workflow's schedule fires next (undefined without a schedule, or when inactive). */
  nextScheduledRun(workspace: string, id: string): Date | undefined {
    return this.scheduler.nextRun(workspace, id);
  }

  // ---------------------------------------------------------------- templates

  /** Every template, with whether this engine can run it. */
  listTemplates(): TemplateListItem[] {
    return [...this.templates.values()].map((t) => this.templateItem(t));
  }

  /** One template with its nodes; `NOT_FOUND` for an unknown id. */
  getTemplate(id: string): TemplateDetail {
    const t = this.templates.get(id);
    if (!t) throw notFound('Template', id);
    return { ...this.templateItem(t), nodes: t.nodes.map(nodeInformation) };
  }

  private templateItem(t: WorkflowTemplate): TemplateListItem {
    const requires = t.nodes.filter((n) => !this.engine.registry.findNode(n.type, n.subtype)).map((n) => `${n.type}/${n.subtype}`);
    return { id: t.id, name: t.name, description: t.description, version: t.version, last_updated: t.last_updated, available: requires.length === 0, requires };
  }

  // ---------------------------------------------------------------- connectors

  /** Creates a source or destination connector `{name, type, config}`; the config is checked by the connector type's schema. */
  async createConnector(workspace: string, kind: ConnectorKind, body: unknown): Promise<ConnectorInformation> {
    const parsed = connectorCreateBody.safeParse(body, { reportInput: true });
    const problems = parsed.success ? [] : zodProblems(parsed.error.issues, body);
    const raw = asObject(body) ?? {};
    const config = asObject(raw.config);
    if (typeof raw.type === 'string' && raw.type && config) problems.push(...connectorConfigProblems(this.engine.registry, kind, raw.type, config, this.local));
    if (typeof raw.name === 'string' && raw.name) problems.push(...(await this.connectorNameProblems(workspace, kind, raw.name, undefined)));
    if (problems.length || !parsed.success) throw requestInvalid('body', problems);
    const now = this.clock.now().toISOString();
    const record: ConnectorRecord = { id: randomUUID(), workspace, kind, name: parsed.data.name, type: parsed.data.type, config: parsed.data.config, created_at: now, updated_at: now };
    await this.store.put(COLLECTION[kind], record);
    this.logger.info(`${kind} connector created`, { workspace, connector_id: record.id, type: record.type });
    return connectorInformation(record);
  }

  /** Lists connectors of one kind, optionally of one `type`. */
  async listConnectors(workspace: string, kind: ConnectorKind, query: unknown = {}): Promise<ConnectorInformation[]> {
    const q = parseRequest(connectorListQuery, query, 'query');
    const rows = (await this.store.list(COLLECTION[kind], { workspace })).filter((c) => !q.type || c.type === q.type);
    return sortAndPage(rows, q, (c, k) => c[k]).map(connectorInformation);
  }

  /** One connector, secrets masked. */
  async getConnector(workspace: string, kind: ConnectorKind, id: string): Promise<ConnectorInformation> {
    return connectorInformation(await this.connectorRecord(workspace, kind, id));
  }

  /** Replaces a connector's config (`{config, name?}`); a secret sent back as `********` keeps its stored value. */
  async updateConnector(workspace: string, kind: ConnectorKind, id: string, body: unknown): Promise<ConnectorInformation> {
    const stored = await this.connectorRecord(workspace, kind, id);
    const raw = asObject(body) ?? {};
    const given = asObject(raw.config);
    const input = given ? { ...raw, config: restoreMaskedSecrets(given, stored.config) } : body;
    const parsed = connectorUpdateBody.safeParse(input, { reportInput: true });
    const problems = parsed.success ? [] : zodProblems(parsed.error.issues, input);
    const config = asObject((input as Record<string, unknown>)?.config);
    if (config) problems.push(...connectorConfigProblems(this.engine.registry, kind, stored.type, config, this.local));
    if (typeof raw.name === 'string' && raw.name && raw.name !== stored.name) problems.push(...(await this.connectorNameProblems(workspace, kind, raw.name, id)));
    if (problems.length || !parsed.success) throw requestInvalid('body', problems);
    const record: ConnectorRecord = { ...stored, name: parsed.data.name ?? stored.name, config: parsed.data.config, updated_at: this.clock.now().toISOString() };
    await this.store.put(COLLECTION[kind], record);
    this.logger.info(`${kind} connector updated`, { workspace, connector_id: id });
    return connectorInformation(record);
  }

  /** Deletes a connector; refused (`CONNECTOR_IN_USE`) while a workflow references it. */
  async deleteConnector(workspace: string, kind: ConnectorKind, id: string): Promise<DeleteResponse> {
    await this.connectorRecord(workspace, kind, id);
    const users = (await this.store.list('workflows', { workspace })).filter((w) => (kind === 'source' ? w.source_id : w.destination_id) === id);
    if (users.length) {
      throw serviceError('CONNECTOR_IN_USE', `${kind} ${id} is used by workflow${users.length > 1 ? 's' : ''} ${users.map((w) => w.id).join(', ')}; change or delete them first`, { id, workflow_ids: users.map((w) => w.id) });
    }
    await this.store.delete(COLLECTION[kind], workspace, id);
    this.logger.info(`${kind} connector deleted`, { workspace, connector_id: id });
    return { id, deleted: true };
  }

  /**
   * Checks that a connector can be reached: its config is parsed and the connector created; a
   * source must also list its first document. A destination is not written to. Answers once the
   * check ended (at most `timeoutMs`, default 10 s); the result is kept until the next check.
   */
  async checkConnection(workspace: string, kind: ConnectorKind, id: string, timeoutMs = 10_000): Promise<ConnectionCheck> {
    const rec = await this.connectorRecord(workspace, kind, id);
    const check: ConnectionCheck = { id: randomUUID(), status: 'SCHEDULED', created_at: this.clock.now().toISOString() };
    const key = `${workspace}\u0000${kind}\u0000${id}`;
    this.checks.set(key, check);
    try {
      await probeConnector(this.engine, kind, rec.type, runtimeConnectorConfig(rec.type, rec.config, workspace, this.local), this.logger, timeoutMs);
      check.status = 'SUCCESS';
    } catch (e) {
      check.status = 'FAILURE';
      check.reason = scrubSecrets(errorMessage(e), collectSecrets(rec.config));
    }
    check.reported_at = this.clock.now().toISOString();
    return { ...check };
  }

  /** The last connection check of a connector; `NOT_FOUND` when none was run since the service started. */
  async getConnectionCheck(workspace: string, kind: ConnectorKind, id: string): Promise<ConnectionCheck> {
    await this.connectorRecord(workspace, kind, id);
    const check = this.checks.get(`${workspace}\u0000${kind}\u0000${id}`);
    if (!check) throw serviceError('NOT_FOUND', `no connection check of ${kind} ${id} yet; POST one first`, { id });
    return { ...check };
  }

  // ---------------------------------------------------------------- jobs

  /** Lists jobs, optionally of one workflow and one status (any case). */
  async listJobs(workspace: string, query: unknown = {}): Promise<JobInformation[]> {
    const q = parseRequest(jobListQuery, query, 'query');
    const rows = await this.store.list('jobs', { workspace, ...(q.workflow_id ? { workflowId: q.workflow_id } : {}), ...(q.status ? { statuses: [q.status] } : {}) });
    return sortAndPage(rows, q, (j, k) => j[k]).map(jobInformation);
  }

  /** One job. */
  async getJob(workspace: string, id: string): Promise<JobInformation> {
    return jobInformation(await this.jobRecord(workspace, id));
  }

  /** Resolves with the job once it has ended (COMPLETED, FAILED or STOPPED). */
  async waitForJob(workspace: string, id: string): Promise<JobInformation> {
    await this.jobRecord(workspace, id);
    await this.runner.waitFor(id);
    return this.getJob(workspace, id);
  }

  /** Processing status and per-node document counts (live while the job runs). */
  async getJobDetails(workspace: string, id: string): Promise<JobDetails> {
    const job = await this.jobRecord(workspace, id);
    return jobDetails(job, this.runner.liveStats(id));
  }

  /** The documents that failed, with their errors. */
  async getFailedFiles(workspace: string, id: string): Promise<JobFailedFiles> {
    return { failed_files: (await this.jobRecord(workspace, id)).failed_files };
  }

  /** Cancels a queued or running job: it ends STOPPED. `JOB_FINISHED` when it already ended. */
  async cancelJob(workspace: string, id: string): Promise<CancelJobResponse> {
    const job = await this.jobRecord(workspace, id);
    if (!(await this.runner.cancel(id))) throw serviceError('JOB_FINISHED', `job ${id} already ended (${job.status}); there is nothing to cancel`, { id, status: job.status });
    return { id, status: 'cancelled', message: 'Job successfully cancelled.' };
  }

  /**
   * The kept output of one input file of a job with a local destination: a JSON array of the
   * elements the last node produced. `node_id`, when given, must be that last node.
   */
  async downloadJobOutput(workspace: string, id: string, query: unknown): Promise<JobDownload> {
    const q = parseRequest(downloadQuery, query, 'query');
    const job = await this.jobRecord(workspace, id);
    if (!job.keeps_output) throw serviceError('NOT_FOUND', `job ${id} wrote to a remote destination; only jobs with a local destination keep output for download`, { id });
    const last = job.nodes[job.nodes.length - 1];
    if (q.node_id && q.node_id !== last?.id) throw serviceError('NOT_FOUND', `node ${q.node_id} has no kept output in job ${id}; only the last node's output (node ${last?.id}) is kept`, { id, node_id: q.node_id });
    const out = job.outputs.find((o) => o.file_id === q.file_id);
    if (!out) throw serviceError('NOT_FOUND', `file ${q.file_id} has no output in job ${id}${job.status === 'IN_PROGRESS' || job.status === 'SCHEDULED' ? ' yet' : ''}`, { id, file_id: q.file_id });
    const input = job.input_files.find((f) => f.file_id === out.file_id);
    const base = input ? input.filename : (out.record_id.split('/').pop() ?? out.file_id);
    return { path: outputPath(jobDirs(this.dataDir, id).output, out.file_id), filename: `${base}.json`, contentType: 'application/json' };
  }

  /**
   * Runs an on-demand job over uploaded files: `request_data` (an object or its JSON text) names a
   * `template_id` or gives `job_nodes`. Its workflow cannot be updated and is deleted when the job ends.
   */
  async createOnDemandJob(workspace: string, requestData: unknown, inputFiles: readonly InputFile[]): Promise<JobInformation> {
    const req = parseOnDemandRequest(requestData, inputFiles.length, { engine: this.engine, templates: this.templates, now: this.clock.now() });
    await checkInputLimits(inputFiles, this.limits);
    const now = this.clock.now().toISOString();
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
    await this.store.put('workflows', wf);
    try {
      return await this.startJob(wf, req.templateId ? 'template' : 'ephemeral', inputFiles);
    } catch (e) {
      await this.store.delete('workflows', workspace, id);
      throw e;
    }
  }

  // ---------------------------------------------------------------- internals

  private async workflowRecord(workspace: string, id: string): Promise<WorkflowRecord> {
    const wf = await this.store.get('workflows', workspace, id);
    if (!wf) throw notFound('Workflow', id);
    return wf;
  }

  private async connectorRecord(workspace: string, kind: ConnectorKind, id: string): Promise<ConnectorRecord> {
    const c = await this.store.get(COLLECTION[kind], workspace, id);
    if (!c) throw notFound(RESOURCE[kind], id);
    return c;
  }

  private async jobRecord(workspace: string, id: string): Promise<JobRecord> {
    const j = await this.store.get('jobs', workspace, id);
    if (!j) throw notFound('Job', id);
    return j;
  }

  private async connectorNameProblems(workspace: string, kind: ConnectorKind, name: string, selfId: string | undefined): Promise<ServiceProblem[]> {
    const taken = (await this.store.list(COLLECTION[kind], { workspace })).some((c) => c.name === name && c.id !== selfId);
    return taken ? [problemAt('name.taken', ['name'], `a ${kind} connector named ${JSON.stringify(name)} already exists; names are unique`)] : [];
  }

  private planProblems(name: string, nodes: readonly StoredNode[]): ServiceProblem[] {
    return planProblems(this.engine, name, nodes, this.clock.now());
  }

  /**
   * Validates a create body, or an update body merged over `stored`, in create mode; then what
   * only the service knows: the template, that the engine provides every node, that the connectors
   * exist in this workspace, that the name is free. Throws `WORKFLOW_INVALID` with every problem.
   */
  private async checkWorkflow(workspace: string, body: unknown, stored: WorkflowRecord | undefined): Promise<{ value: ValidWorkflow; nodes: StoredNode[]; status?: WorkflowStatusValue }> {
    const split = splitStatus(body);
    const problems: ServiceProblem[] = [...split.problems];
    let candidate = split.rest;
    if (stored) {
      const update = asObject(split.rest);
      if (!update) throw workflowInvalid([problemAt('schema.invalid_type', [], 'a workflow update body must be a JSON object')]);
      const withSecrets = 'workflow_nodes' in update ? { ...update, workflow_nodes: restoreNodeSecrets(update.workflow_nodes, stored.workflow_nodes) } : update;
      const u = validateWorkflow(withSecrets, { mode: 'update', registry: this.engine.registry, now: this.clock.now() });
      if (!u.valid) throw workflowInvalid([...problems, ...u.problems]);
      candidate = mergeUpdate(stored, withSecrets);
    }
    const v = validateWorkflow(candidate, { mode: 'create', registry: this.engine.registry, now: this.clock.now() });
    if (!v.valid) problems.push(...v.problems);
    const raw = asObject(candidate) ?? {};
    let nodes: StoredNode[] = [];
    if (v.valid) {
      if (v.value.workflow_type === 'template') {
        const t = this.templates.get(v.value.template_id ?? '');
        if (!t) problems.push(problemAt('template.not_found', ['template_id'], `template ${JSON.stringify(v.value.template_id)} not found; known: ${[...this.templates.keys()].join(', ')}`));
        else {
          nodes = [...t.nodes];
          problems.push(...templateProblems(t.id, this.planProblems(v.value.name, nodes), '/template_id'));
        }
      } else {
        nodes = (v.value.workflow_nodes ?? []).map((n) => ({ id: n.id ?? '', name: n.name, type: n.type, subtype: n.subtype, settings: n.settings }));
        problems.push(...this.planProblems(v.value.name, nodes));
      }
    }
    for (const [field, kind] of [['source_id', 'source'], ['destination_id', 'destination']] as const) {
      const ref = raw[field];
      if (typeof ref === 'string' && ref && !(await this.store.get(COLLECTION[kind], workspace, ref))) {
        problems.push(problemAt('reference.not_found', [field], `${kind} connector ${ref} not found`));
      }
    }
    if (typeof raw.name === 'string' && raw.name) {
      const taken = (await this.store.list('workflows', { workspace })).some((w) => !w.ephemeral && w.name === raw.name && w.id !== stored?.id);
      if (taken) problems.push(problemAt('name.taken', ['name'], `a workflow named ${JSON.stringify(raw.name)} already exists; names are unique`));
    }
    if (problems.length || !v.valid) throw workflowInvalid(problems);
    return { value: v.value, nodes, ...(split.status ? { status: split.status } : {}) };
  }

  private schedule(wf: WorkflowRecord): void {
    if (this.closed || wf.ephemeral || wf.status !== 'active' || !wf.schedule) {
      this.scheduler.remove(wf.workspace, wf.id);
      return;
    }
    this.scheduler.set(wf.workspace, wf.id, scheduleToCron(wf.schedule), wf.last_scheduled_run ? new Date(wf.last_scheduled_run) : undefined);
  }

  private async onScheduleTick(workspace: string, id: string, slot: Date): Promise<void> {
    try {
      const wf = await this.store.get('workflows', workspace, id);
      if (!wf || wf.status !== 'active' || !wf.schedule) return;
      wf.last_scheduled_run = slot.toISOString();
      await this.store.put('workflows', wf);
      const running = this.busy.get(busyKey(workspace, id));
      if (running) {
        this.logger.warn('scheduled run skipped: the workflow is still running', { workspace, workflow_id: id, slot: slot.toISOString(), job_id: running });
        return;
      }
      const job = await this.startJob(wf, 'scheduled', []);
      this.logger.info('scheduled run started', { workspace, workflow_id: id, slot: slot.toISOString(), job_id: job.id });
    } catch (e) {
      this.logger.error('scheduled run could not start', { workspace, workflow_id: id, slot: slot.toISOString(), error: e instanceof Error ? e.message : String(e) });
    }
  }

  private buildPlan(wf: WorkflowRecord): Plan {
    return this.engine.build({ name: wf.name, nodes: nodeRefs(wf.workflow_nodes), reprocess_all: wf.reprocess_all }, { now: this.clock.now() });
  }

  private async startJob(wf: WorkflowRecord, jobType: JobType, inputFiles: readonly InputFile[]): Promise<JobInformation> {
    const { workspace } = wf;
    if (wf.source_id && inputFiles.length) {
      throw requestInvalid('body', [problemAt('input.not_allowed', ['input_files'], `workflow ${wf.id} reads from source ${wf.source_id}; input files apply only to a workflow with a local source (no source_id)`)]);
    }
    if (!wf.source_id && !inputFiles.length) {
      throw requestInvalid('body', [problemAt('schema.required', ['input_files'], `workflow ${wf.id} has a local source: upload the documents to process as input_files`)]);
    }
    await checkInputLimits(inputFiles, this.limits);
    const plan = this.buildPlan(wf);
    const source = wf.source_id ? await this.connectorRecord(workspace, 'source', wf.source_id) : undefined;
    const destination = wf.destination_id ? await this.connectorRecord(workspace, 'destination', wf.destination_id) : undefined;

    const key = busyKey(workspace, wf.id);
    const running = this.busy.get(key);
    if (running) throw serviceError('WORKFLOW_BUSY', `workflow ${wf.id} already has job ${running} scheduled or running; a workflow never runs twice at once`, { id: wf.id, job_id: running });
    const jobId = randomUUID();
    this.busy.set(key, jobId);
    const dirs = jobDirs(this.dataDir, jobId);
    try {
      const staged = await stageInputFiles(inputFiles, dirs.input);
      const now = this.clock.now().toISOString();
      const keepsOutput = !destination || destination.type === this.local.type;
      const uploads = uploadRecordIds(staged);
      const outputs: JobRecord['outputs'] = [];
      const destinations: DestinationInput[] = [];
      if (destination) destinations.push({ type: destination.type, config: runtimeConnectorConfig(destination.type, destination.config, workspace, this.local) });
      if (keepsOutput) destinations.push(jobOutputDestination(dirs.output, (rid) => outputFileId(rid, uploads), (f) => outputs.push(f)));
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
      record.node_stats = statRows.map((r) => ({ node_name: r.name, node_type: r.type, node_subtype: r.subtype, ready: 0, in_progress: 0, success: 0, failure: 0 }));
      await this.store.put('jobs', record);
      const secrets = [...collectSecrets(source?.config ?? {}), ...collectSecrets(destination?.config ?? {}), ...wf.workflow_nodes.flatMap((n) => collectSecrets(n.settings))];
      this.runner.submit({
        record,
        plan,
        source: source ? { type: source.type, config: runtimeConnectorConfig(source.type, source.config, workspace, this.local) } : uploadedFilesSource(staged, now),
        destinations,
        ...(source && !wf.reprocess_all ? { state: this.stateStore(workspace, wf.id) } : {}),
        secrets,
        statRows,
        outputs,
        ...(staged.length ? { inputDir: dirs.input } : {}),
      });
      return jobInformation(record);
    } catch (e) {
      this.busy.delete(key);
      await rm(dirs.root, { recursive: true, force: true });
      throw e;
    }
  }

  private stateStore(workspace: string, workflowId: string): StateStore {
    return {
      get: (recordId) => this.store.getDocumentVersion(workspace, workflowId, recordId),
      set: (recordId, version) => this.store.setDocumentVersion(workspace, workflowId, recordId, version),
    };
  }

  private async onJobEnded(record: JobRecord): Promise<void> {
    const key = busyKey(record.workspace, record.workflow_id);
    if (this.busy.get(key) === record.id) this.busy.delete(key);
    const wf = await this.store.get('workflows', record.workspace, record.workflow_id);
    if (wf?.ephemeral) await this.store.delete('workflows', record.workspace, wf.id);
  }
}

type WorkflowStatusValue = WorkflowRecord['status'];

function busyKey(workspace: string, id: string): string {
  return `${workspace}\u0000${id}`;
}
