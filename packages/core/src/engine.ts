import { Services } from './plugin/services.js';
import { quarryError } from './errors.js';
import { assertNoProblems, compilePlan, type Plan, type PlanProblem } from './plan/plan.js';
import { Registry } from './plugin/registry.js';
import { parseSettings } from './plugin/settings.js';
import type { DestinationConnector, Logger, NodeInstance, Plugin, SourceConnector, WorkflowNodeRef } from './plugin/types.js';
import { streamDocuments, type DocumentStream } from './runtime/document-stream.js';
import type { Job } from './runtime/events.js';
import { silentLogger } from './runtime/logger.js';
import { startJob } from './runtime/start-job.js';
import type { StateStore } from './runtime/state-store.js';
import { validateWorkflow } from './workflow/validate-workflow.js';

/** A connector named by type with its config, resolved through the registry. */
export interface ConnectorSpec {
  type: string;
  config?: Record<string, unknown>;
}

/** A source: a registered type with config, or a ready instance. */
export type SourceInput = ConnectorSpec | SourceConnector;
/** A destination: a registered type with config, or a ready instance. */
export type DestinationInput = ConnectorSpec | DestinationConnector;

/** Options of {@link Engine.run}. */
export interface RunOptions {
  source: SourceInput;
  /** One destination, several (the flow branches to each), or none (elements are only reported). */
  destination?: DestinationInput | DestinationInput[];
  /**
   * Documents in flight at once (default 4). A destination may take up to its `writeBehind` more
   * whose writes are still running.
   */
  concurrency?: number;
  signal?: AbortSignal;
  /** Overrides the workflow's `reprocess_all`. With `false`, unchanged documents are skipped. */
  reprocessAll?: boolean;
  /** Where written versions are remembered; needed for incremental runs. */
  state?: StateStore;
  logger?: Logger;
  /** Report a node call running longer than this (default 60 s). */
  stallWarningMs?: number;
  /** Fail a node call running longer than this (default 10 min; 0 disables). */
  nodeTimeoutMs?: number;
  /** Shared per-job services handed to node factories. */
  services?: Services;
  /**
   * Other processes write this job's documents to the same destinations meanwhile (a distributed
   * run's workers): destinations are told so at `prepare` (`PlanInfo.sharedWriters`).
   */
  sharedDestinations?: boolean;
}

/** Options of {@link Engine.stream}: those of {@link Engine.run}, plus the buffer. */
export interface StreamOptions extends RunOptions {
  /**
   * Finished documents the job may hold ahead of the loop (default 2). With the documents in the
   * nodes (`concurrency`), at most `concurrency + buffer` documents are in memory at once.
   */
  buffer?: number;
}

/** A workflow for the library API: a name and nodes, without the REST body's connector ids. */
export interface PipelineInput {
  name: string;
  nodes: WorkflowNodeRef[];
  reprocess_all?: boolean;
}

/** Options of {@link Engine.build}. */
export interface BuildOptions {
  /** Resolves `template_id` of a template workflow to its nodes. */
  templates?: (templateId: string) => WorkflowNodeRef[] | undefined;
  /** Clock for rules that depend on the date (retired models); default now. */
  now?: Date;
}

/** True when a source input is a ready instance rather than a {@link ConnectorSpec}. */
export function isSourceInstance(s: SourceInput): s is SourceConnector {
  return typeof (s as SourceConnector).list === 'function';
}

/** True when a destination input is a ready instance rather than a {@link ConnectorSpec}. */
export function isDestinationInstance(d: DestinationInput): d is DestinationConnector {
  return typeof (d as DestinationConnector).write === 'function';
}

/**
 * The quarry engine: register plugins with {@link Engine.use}, compile a workflow with
 * {@link Engine.build} (validated once, immutable), run it with {@link Engine.run}. The first
 * `build()` freezes the engine, as unified freezes a processor once used: a later `use()` throws
 * `ENGINE_FROZEN`, so every plan of an engine sees the same plugins.
 *
 * @example
 * ```ts
 * const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
 * const plan = engine.build(workflowBody);
 * const job = engine.run(plan, { source: { type: 'local', config: { path: 'docs' } },
 *   destination: { type: 'local', config: { path: 'out' } } });
 * console.log((await job.done).counts);
 * ```
 */
export class Engine {
  /** Every registered node, connector and embedding model. */
  readonly registry = new Registry();

  /** Registers a plugin (checked at once: name, engine range, duplicates); `ENGINE_FROZEN` after the first `build()`. */
  use(plugin: Plugin): this {
    this.registry.register(plugin);
    return this;
  }

  /**
   * Validates a workflow create body (the Unstructured workflow API's rules) or a library {@link PipelineInput}, resolves
   * every node against the registry and parses its settings. Throws `WORKFLOW_INVALID` with every
   * problem in `details.problems`.
   */
  build(input: unknown, options: BuildOptions = {}): Plan {
    this.registry.freeze();
    const problems: PlanProblem[] = [];
    let name: string;
    let nodes: WorkflowNodeRef[];
    let reprocessAll: boolean | undefined;
    let basePath = '/workflow_nodes';
    if (isPipelineInput(input)) {
      name = input.name;
      reprocessAll = input.reprocess_all;
      basePath = '/nodes';
      const v = validateWorkflow(
        {
          name: input.name,
          workflow_type: 'custom',
          workflow_nodes: input.nodes,
          ...(input.reprocess_all === undefined ? {} : { reprocess_all: input.reprocess_all }),
        },
        { mode: 'create', registry: this.registry, ...(options.now ? { now: options.now } : {}) },
      );
      problems.push(...v.problems.map((p) => ({ ...p, path: p.path.replace(/^\/workflow_nodes/, '/nodes') })));
      nodes = input.nodes;
    } else {
      const v = validateWorkflow(input, { mode: 'create', registry: this.registry, ...(options.now ? { now: options.now } : {}) });
      problems.push(...v.problems);
      const body = (v.valid ? v.value : input) as {
        name?: string;
        workflow_type?: string;
        template_id?: string;
        workflow_nodes?: WorkflowNodeRef[];
        reprocess_all?: boolean;
      };
      name = body.name ?? 'workflow';
      reprocessAll = body.reprocess_all;
      nodes = body.workflow_nodes ?? [];
      if (v.valid && body.workflow_type === 'template') {
        const resolved = options.templates?.(body.template_id ?? '');
        if (!resolved) problems.push({ code: 'template.not_found', path: '/template_id', message: `template "${body.template_id}" not found` });
        else nodes = resolved;
      }
    }
    assertNoProblems(problems, `workflow "${name}"`);
    const compiled = compilePlan(this.registry, { name, nodes, basePath, ...(reprocessAll === undefined ? {} : { reprocess_all: reprocessAll }) });
    assertNoProblems(compiled.problems, `workflow "${name}"`);
    return compiled.plan!;
  }

  /** Creates a registered source from its type and config (`SETTINGS_INVALID` names each bad field). */
  async createSource(spec: ConnectorSpec, ctx: { logger: Logger; signal: AbortSignal }): Promise<SourceConnector> {
    const def = this.registry.source(spec.type);
    const parsed = parseSettings(def.config, spec.config ?? {});
    if (!parsed.ok) throw connectorConfigError('source', spec.type, parsed.problems);
    return def.create(parsed.value, ctx);
  }

  /** Creates a registered destination from its type and config (`SETTINGS_INVALID` names each bad field). */
  async createDestination(spec: ConnectorSpec, ctx: { logger: Logger; signal: AbortSignal }): Promise<DestinationConnector> {
    const def = this.registry.destination(spec.type);
    const parsed = parseSettings(def.config, spec.config ?? {});
    if (!parsed.ok) throw connectorConfigError('destination', spec.type, parsed.problems);
    return def.create(parsed.value, ctx);
  }

  /** Starts a job for a plan. Returns at once; see {@link Job}. */
  run(plan: Plan, options: RunOptions): Job {
    return this.start('run', plan, options, []);
  }

  /**
   * Runs a plan and yields each document's output elements (after every node) as it finishes, in
   * bounded memory; leaving the loop cancels the job. Documents also go to `options.destination`,
   * when given, before they are yielded. See {@link DocumentStream} for failures and errors.
   *
   * @example
   * ```ts
   * for await (const doc of engine.stream(plan, { source: { type: 'local', config: { path: 'docs' } } })) {
   *   if (doc.error) console.warn(doc.record_id, doc.error.code, doc.error.message);
   *   else console.log(doc.record_id, doc.elements.length);
   * }
   * ```
   */
  stream(plan: Plan, options: StreamOptions): DocumentStream {
    const buffer = options?.buffer ?? 2;
    if (!Number.isInteger(buffer) || buffer < 0)
      throw quarryError('INVALID_ARGUMENT', `stream() options.buffer must be a whole number >= 0, got ${String(buffer)}`);
    return streamDocuments((sink) => this.start('stream', plan, options, [sink]), buffer);
  }

  private start(method: string, plan: Plan, options: RunOptions, extra: DestinationConnector[]): Job {
    if (!plan || !Array.isArray(plan.nodes)) throw quarryError('INVALID_ARGUMENT', `${method}() needs a plan from engine.build()`);
    if (!options?.source) throw quarryError('INVALID_ARGUMENT', `${method}() needs options.source`);
    const logger = options.logger ?? silentLogger;
    const services = options.services ?? new Services();
    const connectorCtx = (signal: AbortSignal) => ({ logger, signal });
    const dests = [...(options.destination === undefined ? [] : Array.isArray(options.destination) ? options.destination : [options.destination]), ...extra];
    return startJob({
      plan,
      concurrency: options.concurrency ?? 4,
      reprocessAll: options.reprocessAll ?? plan.reprocessAll,
      ...(options.state ? { state: options.state } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      logger,
      stallWarningMs: options.stallWarningMs ?? 60_000,
      nodeTimeoutMs: options.nodeTimeoutMs ?? 600_000,
      ...(options.sharedDestinations ? { sharedDestinations: true } : {}),
      source: async (signal) => (isSourceInstance(options.source) ? options.source : this.createSource(options.source, connectorCtx(signal))),
      destinations: (signal) => Promise.all(dests.map(async (d) => (isDestinationInstance(d) ? d : this.createDestination(d, connectorCtx(signal))))),
      nodes: (signal) =>
        Promise.all(
          plan.nodes.map(
            (n): Promise<NodeInstance> =>
              Promise.resolve(
                n.definition.create(n.parsedSettings, {
                  node: { name: n.name, type: n.type, subtype: n.subtype, settings: n.settings },
                  nodes: plan.nodes,
                  logger,
                  signal,
                  services,
                  formats: this.registry.formats(),
                }),
              ),
          ),
        ),
    });
  }
}

function isPipelineInput(v: unknown): v is PipelineInput {
  return typeof v === 'object' && v !== null && Array.isArray((v as PipelineInput).nodes) && !('workflow_type' in v);
}

function connectorConfigError(kind: string, type: string, problems: Array<{ path: string; message: string }>) {
  const list = problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ');
  return quarryError('SETTINGS_INVALID', `${kind} "${type}" config is invalid: ${list}`, { details: { problems } });
}

/** Creates an engine with no plugins registered. */
export function createEngine(): Engine {
  return new Engine();
}
