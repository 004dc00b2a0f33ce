import type { Job, JobSummary } from './events.js';
import { createJobShell } from './job-shell.js';
import type { JobDeps } from './run-job.js';

/**
 * {@link runJob} with the runtime (rxjs operators, node stages, write-behind) imported when the
 * first job starts rather than with the engine: the job's handle and events exist at once, and the
 * work begins after the import, as it would after `runJob`'s first yield.
 */
export function startJob(deps: JobDeps): Job {
  const shell = createJobShell(deps.plan.nodes, deps.signal);
  const done = import('./run-job.js').then(
    (runtime) => runtime.executeJob(shell, deps),
    (e: unknown): JobSummary => {
      shell.fail(e, deps.logger);
      return shell.finish();
    },
  );
  return shell.handle(done);
}
