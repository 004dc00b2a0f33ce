import type { Engine } from '../engine.js';
import { isQuarryError } from '../errors.js';
import type { PlanProblem } from '../plan/plan.js';
import type { StoredNode } from './records.js';
import type { ServiceProblem } from './service-errors.js';
import { nodeRefs, rebase } from './workflow-input.js';

/** Problems the engine finds in nodes (a node no plugin provides, stage order), at `/workflow_nodes/...`. */
export function planProblems(engine: Engine, name: string, nodes: readonly StoredNode[], now: Date): ServiceProblem[] {
  try {
    engine.build({ name, nodes: nodeRefs(nodes) }, { now });
    return [];
  } catch (e) {
    if (isQuarryError(e) && e.code === 'WORKFLOW_INVALID') return rebase(e.details.problems as PlanProblem[], '/nodes', '/workflow_nodes');
    throw e;
  }
}

/** Problems inside a template's nodes, reported at the field that names the template. */
export function templateProblems(templateId: string, problems: readonly ServiceProblem[], at: string): ServiceProblem[] {
  return problems.map((p) => ({
    code: p.code,
    path: at,
    message: `template ${JSON.stringify(templateId)} (${p.path.replace(/^\/workflow_nodes\//, 'node ')}): ${p.message}`,
  }));
}
