import type { Engine } from '../engine.js';
import { validateWorkflow } from '../workflow/validate-workflow.js';
import { planProblems, templateProblems } from './plan-problems.js';
import type { StoredNode } from './records.js';
import { zodProblems } from './request-problems.js';
import { onDemandRequestData } from './schemas.js';
import { problemAt, requestInvalid, type ServiceProblem } from './service-errors.js';
import type { WorkflowTemplate } from '../plugin/types.js';
import { assignNodeIds, rebase } from './workflow-input.js';

/** What an on-demand request is checked against. */
export interface OnDemandContext {
  engine: Engine;
  templates: ReadonlyMap<string, WorkflowTemplate>;
  now: Date;
}

/**
 * Parses an on-demand job's `request_data` (an object, or its JSON text as sent in a multipart
 * field): exactly one of `template_id` and `job_nodes`, nodes valid and provided by the engine, and
 * at least one input file. Throws `REQUEST_INVALID` with every problem; returns the nodes (new ids).
 */
export function parseOnDemandRequest(requestData: unknown, fileCount: number, ctx: OnDemandContext): { nodes: StoredNode[]; templateId?: string } {
  let data = requestData;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch (e) {
      throw requestInvalid('body', [problemAt('schema.invalid_type', ['request_data'], `request_data must be a JSON object: ${(e as Error).message}`)]);
    }
  }
  const parsed = onDemandRequestData.safeParse(data, { reportInput: true });
  const problems: ServiceProblem[] = parsed.success ? [] : zodProblems(parsed.error.issues, data, ['request_data']);
  const req = parsed.success ? parsed.data : undefined;
  if (req && (req.template_id === undefined) === (req.job_nodes === undefined)) {
    problems.push(problemAt('request.template_or_nodes', ['request_data'], 'request_data needs exactly one of template_id or job_nodes'));
  }
  if (fileCount === 0) problems.push(problemAt('schema.required', ['input_files'], 'an on-demand job needs at least one input file'));
  let nodes: StoredNode[] = [];
  if (req?.template_id !== undefined && req.job_nodes === undefined) {
    const t = ctx.templates.get(req.template_id);
    if (!t)
      problems.push(
        problemAt(
          'template.not_found',
          ['request_data', 'template_id'],
          `template ${JSON.stringify(req.template_id)} not found; known: ${[...ctx.templates.keys()].join(', ')}`,
        ),
      );
    else {
      nodes = assignNodeIds(t.nodes);
      problems.push(...templateProblems(t.id, planProblems(ctx.engine, 'on-demand', nodes, ctx.now), '/request_data/template_id'));
    }
  } else if (req?.job_nodes !== undefined && req.template_id === undefined) {
    const v = validateWorkflow(
      { name: 'on-demand', workflow_type: 'custom', workflow_nodes: req.job_nodes },
      { mode: 'create', registry: ctx.engine.registry, now: ctx.now },
    );
    if (!v.valid) problems.push(...rebase(v.problems, '/workflow_nodes', '/request_data/job_nodes'));
    else {
      nodes = assignNodeIds(v.value.workflow_nodes ?? []);
      problems.push(...rebase(planProblems(ctx.engine, 'on-demand', nodes, ctx.now), '/workflow_nodes', '/request_data/job_nodes'));
    }
  }
  if (problems.length || !req) throw requestInvalid('body', problems);
  return { nodes, ...(req.template_id ? { templateId: req.template_id } : {}) };
}
