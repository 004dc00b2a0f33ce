import { quarryError } from '../errors.js';
import { parseSettings } from '../plugin/settings.js';
import type { Registry } from '../plugin/registry.js';
import { NODE_STAGES, type NodeDefinition, type NodeType, type Stage, type WorkflowNodeRef } from '../plugin/types.js';

/** One problem found while compiling (same shape as workflow validation problems). */
export interface PlanProblem {
  code: string;
  path: string;
  message: string;
}

/** A node of a compiled plan: its workflow form, its definition and its parsed settings. */
export interface PlanNode extends WorkflowNodeRef {
  readonly definition: NodeDefinition<unknown>;
  /** Settings after the node's own schema applied defaults. */
  readonly parsedSettings: unknown;
}

/**
 * A compiled, validated, immutable pipeline: Source, the nodes in array order, Destination(s).
 * Build it with `engine.build()`; run it with `engine.run()`.
 */
export interface Plan {
  readonly name: string;
  readonly nodes: readonly PlanNode[];
  /** From the workflow's `reprocess_all` (default true). */
  readonly reprocessAll: boolean;
  /** Embedding dimensions when the plan embeds with a model known to the registry. */
  readonly embeddingDimensions?: number;
}

/** Input of {@link compilePlan}. */
export interface CompilePlanInput {
  name: string;
  nodes: readonly WorkflowNodeRef[];
  reprocess_all?: boolean;
  /** JSON pointer prefix of the nodes array in the caller's body, for problem paths. */
  basePath?: string;
}

/**
 * Resolves each node against the registry, parses its settings with the node's own schema and
 * checks stage order (`file -> elements -> chunks -> vectors`). Returns every problem at once.
 */
export function compilePlan(registry: Registry, input: CompilePlanInput): { plan?: Plan; problems: PlanProblem[] } {
  const problems: PlanProblem[] = [];
  const base = input.basePath ?? '/workflow_nodes';
  const nodes: PlanNode[] = [];
  let stage: Stage = 'file';
  input.nodes.forEach((n, i) => {
    const path = `${base}/${i}`;
    const def = registry.findNode(n.type, n.subtype);
    if (!def) {
      const known = registry.nodeSubtypes(n.type as NodeType);
      problems.push({
        code: 'node.not_registered',
        path: `${path}/subtype`,
        message: `no plugin provides ${n.type}/${n.subtype}; registered ${n.type} subtypes: ${known.length ? known.join(', ') : '(none)'}`,
      });
      return;
    }
    const stages = NODE_STAGES[def.type];
    if (!stages.consumes.includes(stage)) {
      problems.push({
        code: 'order.stage_mismatch',
        path,
        message: `node "${n.name}" (${n.type}) consumes ${stages.consumes.join(' or ')}, but the previous node produces ${stage}`,
      });
    }
    stage = stages.produces;
    const parsed = parseSettings(def.settings, n.settings ?? {});
    if (!parsed.ok) {
      for (const p of parsed.problems) problems.push({ code: 'settings.invalid', path: `${path}/settings${p.path}`, message: p.message });
      return;
    }
    nodes.push(Object.freeze({ ...n, definition: def as NodeDefinition<unknown>, parsedSettings: parsed.value }));
  });
  if (problems.length) return { problems };
  const embed = nodes.find((n) => n.type === 'embed');
  const modelName = embed ? (embed.settings as { model_name?: unknown }).model_name : undefined;
  const model = embed && typeof modelName === 'string' ? registry.embeddingModel(embed.subtype, modelName) : undefined;
  const plan: Plan = Object.freeze({
    name: input.name,
    nodes: Object.freeze(nodes),
    reprocessAll: input.reprocess_all ?? true,
    ...(model ? { embeddingDimensions: model.dimensions } : {}),
  });
  return { plan, problems };
}

/** Throws `WORKFLOW_INVALID` carrying `details.problems` when there are problems. */
export function assertNoProblems(problems: PlanProblem[], what: string): void {
  if (!problems.length) return;
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  throw quarryError('WORKFLOW_INVALID', `${what} is invalid: ${first.path || '/'}: ${first.message}${more}`, { details: { problems } });
}
