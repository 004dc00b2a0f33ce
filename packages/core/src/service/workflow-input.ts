import { randomUUID } from 'node:crypto';
import type { WorkflowNodeRef } from '../plugin/types.js';
import type { Problem } from '../workflow/problems.js';
import type { ValidWorkflowNode } from '../workflow/validate-workflow.js';
import { zodProblems } from './request-problems.js';
import type { StoredNode, WorkflowRecord } from './records.js';
import { workflowStatusField, type WorkflowStatus } from './schemas.js';
import { restoreMaskedSecrets } from './secrets.js';
import type { ServiceProblem } from './service-errors.js';

/** A plain object, or undefined. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * Takes the `status` toggle (not a field of the Unstructured workflow API, so workflow validation would reject it) out of a
 * workflow body and checks it.
 */
export function splitStatus(body: unknown): { rest: unknown; status?: WorkflowStatus; problems: ServiceProblem[] } {
  const obj = asObject(body);
  if (!obj || !('status' in obj)) return { rest: body, problems: [] };
  const { status, ...rest } = obj;
  const r = workflowStatusField.safeParse(status, { reportInput: true });
  if (r.success) return { rest, status: r.data, problems: [] };
  return { rest, problems: zodProblems(r.error.issues, status, ['status']) };
}

/** The create body a stored workflow corresponds to (nodes with their ids). */
export function createForm(w: WorkflowRecord): Record<string, unknown> {
  return {
    name: w.name,
    workflow_type: w.workflow_type,
    reprocess_all: w.reprocess_all,
    ...(w.source_id ? { source_id: w.source_id } : {}),
    ...(w.destination_id ? { destination_id: w.destination_id } : {}),
    ...(w.schedule ? { schedule: w.schedule } : {}),
    ...(w.workflow_type === 'template' ? { template_id: w.template_id } : { workflow_nodes: w.workflow_nodes }),
  };
}

/**
 * The create body of an update: the stored workflow with the given fields laid over it. A field
 * given as null is removed (`schedule: null` ends the schedule, `source_id: null` makes the source
 * local). Switching to `template` drops the stored nodes; switching to `custom` without nodes keeps
 * the nodes the workflow runs now.
 */
export function mergeUpdate(stored: WorkflowRecord, update: Record<string, unknown>): Record<string, unknown> {
  const merged = createForm(stored);
  for (const [k, v] of Object.entries(update)) {
    if (v === null) delete merged[k];
    else merged[k] = v;
  }
  const type = typeof update.workflow_type === 'string' ? update.workflow_type.trim().toLowerCase() : undefined;
  if (type === 'template' && !('workflow_nodes' in update)) delete merged.workflow_nodes;
  if (type === 'custom') {
    if (!('template_id' in update)) delete merged.template_id;
    if (!('workflow_nodes' in update) && stored.workflow_type === 'template') merged.workflow_nodes = stored.workflow_nodes;
  }
  return merged;
}

/** Puts back masked secrets of nodes sent back by id (a client may PUT what it read). */
export function restoreNodeSecrets(nodes: unknown, previous: readonly StoredNode[]): unknown {
  if (!Array.isArray(nodes)) return nodes;
  return nodes.map((n) => {
    const obj = asObject(n);
    const old = obj && typeof obj.id === 'string' ? previous.find((p) => p.id === obj.id) : undefined;
    const settings = obj && asObject(obj.settings);
    return old && settings ? { ...obj, settings: restoreMaskedSecrets(settings, old.settings) } : n;
  });
}

/** Gives each node an id: the id it was sent with when that is one of the workflow's, else a new one. */
export function assignNodeIds(nodes: readonly (ValidWorkflowNode | StoredNode)[], previous: readonly StoredNode[] = []): StoredNode[] {
  const known = new Set(previous.map((n) => n.id));
  const used = new Set<string>();
  return nodes.map((n) => {
    const id = n.id && known.has(n.id) && !used.has(n.id) ? n.id : randomUUID();
    used.add(id);
    return { id, name: n.name, type: n.type, subtype: n.subtype, settings: n.settings };
  });
}

/** Nodes without ids, as the engine takes them. */
export function nodeRefs(nodes: readonly StoredNode[]): WorkflowNodeRef[] {
  return nodes.map(({ name, type, subtype, settings }) => ({ name, type, subtype, settings }));
}

/** Moves problem paths from one JSON pointer prefix to another. */
export function rebase(problems: readonly (Problem | ServiceProblem)[], from: string, to: string): ServiceProblem[] {
  return problems.map((p) => ({
    code: p.code,
    message: p.message,
    path: p.path === from || p.path.startsWith(`${from}/`) ? to + p.path.slice(from.length) : p.path,
  }));
}
