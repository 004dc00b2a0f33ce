import type { Services } from '../plugin/services.js';
import path from 'node:path';
import type { Engine } from '../engine.js';
import { silentLogger } from '../runtime/logger.js';
import { systemClock, type Clock } from './clock.js';
import type { LocalConnectorPolicy } from './connector-config.js';
import type { InputLimits } from './job-files.js';
import { JobRunner } from './job-runner.js';
import type { JobRecord } from './records.js';
import type { ConnectionCheck } from './schemas.js';
import { Scheduler } from './scheduler.js';
import type { Store } from './store.js';
import type { Logger, WorkflowTemplate } from '../plugin/types.js';

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
  /** Default: the templates the engine's plugins supply (`engine.registry.templates()`). */
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
  services?: Services;
  /** Local filesystem connectors: type `local`, paths sandboxed per workspace under `<dataDir>/workspaces/<workspace>/files` by default. */
  localConnectors?: Partial<LocalConnectorPolicy>;
}

/**
 * What the parts of one `WorkflowService` (workflows, connectors, jobs, schedules) share: the
 * options with their defaults applied, the job runner, the scheduler and the little state kept in
 * memory. Each part is a set of functions over it.
 */
export interface ServiceContext {
  readonly engine: Engine;
  readonly store: Store;
  /** Absolute. */
  readonly dataDir: string;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly templates: ReadonlyMap<string, WorkflowTemplate>;
  readonly limits: InputLimits;
  readonly local: LocalConnectorPolicy;
  readonly runner: JobRunner;
  readonly scheduler: Scheduler;
  /** Workflows with a job queued or running, {@link busyKey} -> job id: a workflow never runs twice at once. */
  readonly busy: Map<string, string>;
  /** The last connection check of each connector, `workspace\0kind\0id` (kept in memory only). */
  readonly checks: Map<string, ConnectionCheck>;
  /** Set by `close()`: no schedule is set after it. */
  closed: boolean;
}

/**
 * What the context calls back into: the parts that handle a job's end and a schedule's tick import
 * the context, so they are handed in rather than imported here.
 */
export interface ServiceHooks {
  /** After a job's final record is stored. */
  jobEnded(ctx: ServiceContext, record: JobRecord): Promise<void>;
  /** When a schedule slot falls due (see `Scheduler`). */
  scheduleTick(ctx: ServiceContext, workspace: string, workflowId: string, slot: Date): void;
}

/** The context of a service opened with `options`. */
export function createServiceContext(options: WorkflowServiceOptions, hooks: ServiceHooks): ServiceContext {
  const dataDir = path.resolve(options.dataDir);
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const runner = new JobRunner({
    engine: options.engine,
    ...(options.services ? { services: options.services } : {}),
    store: options.store,
    clock,
    logger,
    maxRunning: options.maxRunningJobs ?? 4,
    concurrency: options.documentConcurrency ?? 4,
    onEnded: (record) => hooks.jobEnded(ctx, record),
  });
  const ctx: ServiceContext = {
    engine: options.engine,
    store: options.store,
    dataDir,
    clock,
    logger,
    templates: new Map((options.templates ?? options.engine.registry.templates()).map((t) => [t.id, t])),
    limits: { maxFiles: options.inputLimits?.maxFiles ?? 10, maxFileBytes: options.inputLimits?.maxFileBytes ?? 10 * 1024 * 1024 },
    local: {
      type: options.localConnectors?.type ?? 'local',
      paths: options.localConnectors?.paths ?? 'sandboxed',
      root: options.localConnectors?.root ?? ((ws) => path.join(dataDir, 'workspaces', encodeURIComponent(ws), 'files')),
    },
    runner,
    scheduler: new Scheduler(clock, (ws, id, slot) => hooks.scheduleTick(ctx, ws, id, slot), logger),
    busy: new Map(),
    checks: new Map(),
    closed: false,
  };
  return ctx;
}

/** The key of a workflow in {@link ServiceContext.busy}. */
export function busyKey(workspace: string, workflowId: string): string {
  return `${workspace}\u0000${workflowId}`;
}
