import { scheduleToCron } from '../workflow/schedule.js';
import { startJob } from './job-lifecycle.js';
import type { WorkflowRecord } from './records.js';
import { busyKey, type ServiceContext } from './service-context.js';

// The schedules of `WorkflowService`'s workflows: which workflows have one, and what a tick does.

/** Sets, replaces or removes a workflow's schedule: only an active, persistent workflow with a schedule has one. */
export function schedule(ctx: ServiceContext, wf: WorkflowRecord): void {
  if (ctx.closed || wf.ephemeral || wf.status !== 'active' || !wf.schedule) {
    ctx.scheduler.remove(wf.workspace, wf.id);
    return;
  }
  ctx.scheduler.set(wf.workspace, wf.id, scheduleToCron(wf.schedule), wf.last_scheduled_run ? new Date(wf.last_scheduled_run) : undefined);
}

/** At open: the schedules of the stored workflows start from now (a slot missed while the service was down is not replayed). */
export async function startSchedules(ctx: ServiceContext): Promise<void> {
  for (const wf of await ctx.store.list('workflows', {})) schedule(ctx, wf);
}

/**
 * A schedule slot fell due: records it as the workflow's last scheduled run, then starts a job
 * unless the workflow is still running one (the tick is skipped and logged). Never throws: a run
 * that cannot start is logged.
 */
export async function scheduleTick(ctx: ServiceContext, workspace: string, id: string, slot: Date): Promise<void> {
  try {
    const wf = await ctx.store.get('workflows', workspace, id);
    if (wf?.status !== 'active' || !wf.schedule) return;
    wf.last_scheduled_run = slot.toISOString();
    await ctx.store.put('workflows', wf);
    const running = ctx.busy.get(busyKey(workspace, id));
    if (running) {
      ctx.logger.warn('scheduled run skipped: the workflow is still running', { workspace, workflow_id: id, slot: slot.toISOString(), job_id: running });
      return;
    }
    const job = await startJob(ctx, wf, 'scheduled', []);
    ctx.logger.info('scheduled run started', { workspace, workflow_id: id, slot: slot.toISOString(), job_id: job.id });
  } catch (e) {
    ctx.logger.error('scheduled run could not start', {
      workspace,
      workflow_id: id,
      slot: slot.toISOString(),
      error: e instanceof Error ? e.message : String(e),
    });
  }
}
