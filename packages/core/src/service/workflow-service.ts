import * as connectors from './connectors.js';
import type { InputFile } from './job-files.js';
import { jobEnded, recoverJobs } from './job-lifecycle.js';
import * as jobs from './jobs.js';
import type { ConnectorKind } from './records.js';
import { scheduleTick, startSchedules } from './schedules.js';
import type {
  CancelJobResponse,
  ConnectionCheck,
  ConnectorInformation,
  DeleteResponse,
  JobDetails,
  JobFailedFiles,
  JobInformation,
  TemplateDetail,
  TemplateListItem,
  WorkflowInformation,
} from './schemas.js';
import { createServiceContext, type ServiceContext, type WorkflowServiceOptions } from './service-context.js';
import type { Store } from './store.js';
import * as workflows from './workflows.js';

export type { WorkflowServiceOptions } from './service-context.js';
export type { RunOptions } from './workflows.js';
export type { JobDownload } from './jobs.js';

/**
 * The Unstructured workflow API's service as a library: workflows (create, list, get, update, delete,
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
  // The methods are those of workflows.ts, connectors.ts, jobs.ts and schedules.ts over one context.
  private readonly ctx: ServiceContext;

  private constructor(options: WorkflowServiceOptions) {
    this.ctx = createServiceContext(options, { jobEnded, scheduleTick: (ctx, ws, id, slot) => void scheduleTick(ctx, ws, id, slot) });
  }

  /**
   * Opens the service: jobs a crash left SCHEDULED or IN_PROGRESS are marked FAILED, leftover
   * on-demand workflows are deleted, and the schedules of active workflows start from now (a run
   * missed while the service was down is not replayed).
   */
  static async open(options: WorkflowServiceOptions): Promise<WorkflowService> {
    const service = new WorkflowService(options);
    await recoverJobs(service.ctx);
    await startSchedules(service.ctx);
    return service;
  }

  /** Stops the schedules, cancels queued and running jobs (they end STOPPED) and waits for them. The store stays open. */
  async close(): Promise<void> {
    if (this.ctx.closed) return;
    this.ctx.closed = true;
    this.ctx.scheduler.stop();
    await this.ctx.runner.close();
  }

  /** Creates a workflow (the Unstructured workflow API's create body, plus an optional `status`). Throws `WORKFLOW_INVALID` listing every problem. */
  async createWorkflow(workspace: string, body: unknown): Promise<WorkflowInformation> {
    return workflows.createWorkflow(this.ctx, workspace, body);
  }

  /** Lists workflows: filters `source_id`, `destination_id`, `status`, `name` (substring, any case), `created_since`, `created_before`; sorting and pages. */
  async listWorkflows(workspace: string, query: unknown = {}): Promise<WorkflowInformation[]> {
    return workflows.listWorkflows(this.ctx, workspace, query);
  }

  /** One workflow; `NOT_FOUND` when absent from this workspace. */
  async getWorkflow(workspace: string, id: string): Promise<WorkflowInformation> {
    return workflows.getWorkflow(this.ctx, workspace, id);
  }

  /**
   * Updates a workflow: every field optional, null removes it; the merged workflow is validated as
   * a create body. Refused for on-demand workflows (`WORKFLOW_NOT_UPDATABLE`).
   */
  async updateWorkflow(workspace: string, id: string, body: unknown): Promise<WorkflowInformation> {
    return workflows.updateWorkflow(this.ctx, workspace, id, body);
  }

  /** Deletes a workflow (its jobs stay listed). Refused while it has a job queued or running. */
  async deleteWorkflow(workspace: string, id: string): Promise<DeleteResponse> {
    return workflows.deleteWorkflow(this.ctx, workspace, id);
  }

  /**
   * Starts a job of a workflow (returned SCHEDULED or already IN_PROGRESS). A workflow with a local
   * source takes `inputFiles`; others refuse them. Refused for an inactive workflow and while the
   * workflow has a job queued or running.
   */
  async runWorkflow(workspace: string, id: string, options: workflows.RunOptions = {}): Promise<JobInformation> {
    return workflows.runWorkflow(this.ctx, workspace, id, options);
  }

  /** When the workflow's schedule fires next (undefined without a schedule, or when inactive). */
  nextScheduledRun(workspace: string, id: string): Date | undefined {
    return this.ctx.scheduler.nextRun(workspace, id);
  }

  /** Every template, with whether this engine can run it. */
  listTemplates(): TemplateListItem[] {
    return workflows.listTemplates(this.ctx);
  }

  /** One template with its nodes; `NOT_FOUND` for an unknown id. */
  getTemplate(id: string): TemplateDetail {
    return workflows.getTemplate(this.ctx, id);
  }

  /** Creates a source or destination connector `{name, type, config}`; the config is checked by the connector type's schema. */
  async createConnector(workspace: string, kind: ConnectorKind, body: unknown): Promise<ConnectorInformation> {
    return connectors.createConnector(this.ctx, workspace, kind, body);
  }

  /** Lists connectors of one kind, optionally of one `type`. */
  async listConnectors(workspace: string, kind: ConnectorKind, query: unknown = {}): Promise<ConnectorInformation[]> {
    return connectors.listConnectors(this.ctx, workspace, kind, query);
  }

  /** One connector, secrets masked. */
  async getConnector(workspace: string, kind: ConnectorKind, id: string): Promise<ConnectorInformation> {
    return connectors.getConnector(this.ctx, workspace, kind, id);
  }

  /** Replaces a connector's config (`{config, name?}`); a secret sent back as `********` keeps its stored value. */
  async updateConnector(workspace: string, kind: ConnectorKind, id: string, body: unknown): Promise<ConnectorInformation> {
    return connectors.updateConnector(this.ctx, workspace, kind, id, body);
  }

  /** Deletes a connector; refused (`CONNECTOR_IN_USE`) while a workflow references it. */
  async deleteConnector(workspace: string, kind: ConnectorKind, id: string): Promise<DeleteResponse> {
    return connectors.deleteConnector(this.ctx, workspace, kind, id);
  }

  /**
   * Checks that a connector can be reached: its config is parsed and the connector created; a
   * source must also list its first document. A destination is not written to. Answers once the
   * check ended (at most `timeoutMs`, default 10 s); the result is kept until the next check.
   */
  async checkConnection(workspace: string, kind: ConnectorKind, id: string, timeoutMs = 10_000): Promise<ConnectionCheck> {
    return connectors.checkConnection(this.ctx, workspace, kind, id, timeoutMs);
  }

  /** The last connection check of a connector; `NOT_FOUND` when none was run since the service started. */
  async getConnectionCheck(workspace: string, kind: ConnectorKind, id: string): Promise<ConnectionCheck> {
    return connectors.getConnectionCheck(this.ctx, workspace, kind, id);
  }

  /** Lists jobs, optionally of one workflow and one status (any case). */
  async listJobs(workspace: string, query: unknown = {}): Promise<JobInformation[]> {
    return jobs.listJobs(this.ctx, workspace, query);
  }

  /** One job. */
  async getJob(workspace: string, id: string): Promise<JobInformation> {
    return jobs.getJob(this.ctx, workspace, id);
  }

  /** Resolves with the job once it has ended (COMPLETED, FAILED or STOPPED). */
  async waitForJob(workspace: string, id: string): Promise<JobInformation> {
    return jobs.waitForJob(this.ctx, workspace, id);
  }

  /** Processing status and per-node document counts (live while the job runs). */
  async getJobDetails(workspace: string, id: string): Promise<JobDetails> {
    return jobs.getJobDetails(this.ctx, workspace, id);
  }

  /** The documents that failed, with their errors. */
  async getFailedFiles(workspace: string, id: string): Promise<JobFailedFiles> {
    return jobs.getFailedFiles(this.ctx, workspace, id);
  }

  /** Cancels a queued or running job: it ends STOPPED. `JOB_FINISHED` when it already ended. */
  async cancelJob(workspace: string, id: string): Promise<CancelJobResponse> {
    return jobs.cancelJob(this.ctx, workspace, id);
  }

  /**
   * The kept output of one input file of a job with a local destination: a JSON array of the
   * elements the last node produced. `node_id`, when given, must be that last node.
   */
  async downloadJobOutput(workspace: string, id: string, query: unknown): Promise<jobs.JobDownload> {
    return jobs.downloadJobOutput(this.ctx, workspace, id, query);
  }

  /**
   * Runs an on-demand job over uploaded files: `request_data` (an object or its JSON text) names a
   * `template_id` or gives `job_nodes`. Its workflow cannot be updated and is deleted when the job ends.
   */
  async createOnDemandJob(workspace: string, requestData: unknown, inputFiles: readonly InputFile[]): Promise<JobInformation> {
    return jobs.createOnDemandJob(this.ctx, workspace, requestData, inputFiles);
  }
}
