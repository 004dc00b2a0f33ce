import { QuarryError } from '../errors.js';
import { validateWorkflow, type ValidWorkflow } from '../workflow/validate-workflow.js';
import { CONNECTOR_COLLECTION } from './connectors.js';
import { planProblems, templateProblems } from './plan-problems.js';
import type { StoredNode, WorkflowRecord } from './records.js';
import type { ServiceContext } from './service-context.js';
import { problemAt, type ServiceProblem } from './service-errors.js';
import { asObject, mergeUpdate, restoreNodeSecrets, splitStatus } from './workflow-input.js';

/** A workflow body the service accepts: the validated body, its nodes (a template's, for a template workflow) and the status it asks for. */
export interface CheckedWorkflow {
  value: ValidWorkflow;
  nodes: StoredNode[];
  status?: WorkflowRecord['status'];
}

function workflowInvalid(problems: ServiceProblem[]): QuarryError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new QuarryError('WORKFLOW_INVALID', `workflow is invalid: ${first.path || '/'}: ${first.message}${more}`, { details: { location: 'body', problems } });
}

/**
 * Validates a create body, or an update body merged over `stored`, in create mode; then what
 * only the service knows: the template, that the engine provides every node, that the connectors
 * exist in this workspace, that the name is free. Throws `WORKFLOW_INVALID` with every problem.
 */
export async function checkWorkflow(ctx: ServiceContext, workspace: string, body: unknown, stored: WorkflowRecord | undefined): Promise<CheckedWorkflow> {
  const split = splitStatus(body);
  const problems: ServiceProblem[] = [...split.problems];
  let candidate = split.rest;
  if (stored) {
    const update = asObject(split.rest);
    if (!update) throw workflowInvalid([problemAt('schema.invalid_type', [], 'a workflow update body must be a JSON object')]);
    const withSecrets = 'workflow_nodes' in update ? { ...update, workflow_nodes: restoreNodeSecrets(update.workflow_nodes, stored.workflow_nodes) } : update;
    const u = validateWorkflow(withSecrets, { mode: 'update', registry: ctx.engine.registry, now: ctx.clock.now() });
    if (!u.valid) throw workflowInvalid([...problems, ...u.problems]);
    candidate = mergeUpdate(stored, withSecrets);
  }
  const v = validateWorkflow(candidate, { mode: 'create', registry: ctx.engine.registry, now: ctx.clock.now() });
  if (!v.valid) problems.push(...v.problems);
  const raw = asObject(candidate) ?? {};
  let nodes: StoredNode[] = [];
  if (v.valid) {
    if (v.value.workflow_type === 'template') {
      const t = ctx.templates.get(v.value.template_id ?? '');
      if (!t)
        problems.push(
          problemAt(
            'template.not_found',
            ['template_id'],
            `template ${JSON.stringify(v.value.template_id)} not found; known: ${[...ctx.templates.keys()].join(', ')}`,
          ),
        );
      else {
        nodes = [...t.nodes];
        problems.push(...templateProblems(t.id, planProblems(ctx.engine, v.value.name, nodes, ctx.clock.now()), '/template_id'));
      }
    } else {
      nodes = (v.value.workflow_nodes ?? []).map((n) => ({ id: n.id ?? '', name: n.name, type: n.type, subtype: n.subtype, settings: n.settings }));
      problems.push(...planProblems(ctx.engine, v.value.name, nodes, ctx.clock.now()));
    }
  }
  for (const [field, kind] of [
    ['source_id', 'source'],
    ['destination_id', 'destination'],
  ] as const) {
    const ref = raw[field];
    if (typeof ref === 'string' && ref && !(await ctx.store.get(CONNECTOR_COLLECTION[kind], workspace, ref))) {
      problems.push(problemAt('reference.not_found', [field], `${kind} connector ${ref} not found`));
    }
  }
  if (typeof raw.name === 'string' && raw.name) {
    const taken = (await ctx.store.list('workflows', { workspace })).some((w) => !w.ephemeral && w.name === raw.name && w.id !== stored?.id);
    if (taken) problems.push(problemAt('name.taken', ['name'], `a workflow named ${JSON.stringify(raw.name)} already exists; names are unique`));
  }
  if (problems.length || !v.valid) throw workflowInvalid(problems);
  return { value: v.value, nodes, ...(split.status ? { status: split.status } : {}) };
}
