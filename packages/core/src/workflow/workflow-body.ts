import type { z } from 'zod';
import { parseSettings } from '../plugin/settings.js';
import { NODE_TYPES, type NodeDefinition } from '../plugin/types.js';
import type { NodeView } from './node-view.js';
import type { WorkflowRegistryView } from '../plugin/types.js';
import { addCodedIssue } from './schema-helpers.js';
import { isZodSchema } from './setting-keys.js';
import { createFields, nonEmpty, updateFields, withoutNulls } from './workflow-fields.js';
import { workflowRuleProblems, type WorkflowView } from './workflow-rules.js';
import { zod } from './zod-lib.js';

/** A registry that lists its node subtypes (the core `Registry` is one). */
export type ListingRegistryView = WorkflowRegistryView & Required<Pick<WorkflowRegistryView, 'nodeSubtypes'>>;

function nodeObject(def: NodeDefinition<unknown>) {
  const spellings = [def.subtype, ...(def.aliases ?? [])] as [string, ...string[]];
  const settings = isZodSchema(def.settings) ? def.settings : jsonSchemaSettings(def);
  return zod().strictObject({
    id: nonEmpty('node id').optional().describe('node id (present in responses)'),
    name: nonEmpty('node name').describe('node label'),
    type: zod().literal(def.type),
    subtype:
      spellings.length > 1
        ? zod()
            .enum(spellings)
            .transform(() => def.subtype)
        : zod().literal(def.subtype),
    // prefault (not default) so an omitted settings object is still parsed: required settings are reported.
    settings: settings.prefault({}),
  });
}

/** Settings of a node configured by JSON Schema: any object here, checked by the node's schema. */
function jsonSchemaSettings(def: NodeDefinition<unknown>) {
  return zod()
    .record(zod().string(), zod().unknown())
    .superRefine((v, ctx) => {
      const r = parseSettings(def.settings, v);
      if (!r.ok)
        for (const p of r.problems) ctx.addIssue({ code: 'custom', message: `${p.path || 'settings'}: ${p.message}`, params: { code: 'settings.invalid' } });
    });
}

/** One registered node, by type then subtype (aliases rewritten). */
function workflowNodeSchema(registry: ListingRegistryView) {
  const byType = NODE_TYPES.flatMap((type) => {
    const defs = registry.nodeSubtypes(type).flatMap((s) => registry.findNode(type, s) ?? []);
    if (!defs.length) return [];
    const [first, ...rest] = defs.map(nodeObject);
    return [zod().discriminatedUnion('subtype', [first!, ...rest])];
  });
  if (!byType.length) return zod().never({ error: 'no node is registered' });
  const [first, ...rest] = byType;
  return zod().discriminatedUnion('type', [first!, ...rest], {
    error: (iss) => (iss.code === 'invalid_union' ? 'a node needs type partition|prompter|chunk|embed and a registered subtype of that type' : undefined),
  });
}

function ruleRefinement(mode: 'create' | 'update', registry: WorkflowRegistryView) {
  return (
    v: {
      workflow_type?: string | null;
      source_id?: unknown;
      template_id?: unknown;
      schedule?: unknown;
      workflow_nodes?: Array<{ name: string; type: NodeView['type']; subtype: string; settings: unknown }> | null;
    },
    ctx: z.RefinementCtx,
  ) => {
    const nodes: NodeView[] | undefined = v.workflow_nodes?.map((n, index) => ({
      index,
      name: n.name,
      ...(n.type ? { type: n.type } : {}),
      subtype: n.subtype,
      registered: true,
      settings: n.settings as Record<string, unknown>,
    }));
    const view: WorkflowView = {
      mode,
      ...(v.workflow_type === 'custom' || v.workflow_type === 'template' ? { workflowType: v.workflow_type } : {}),
      has: { source_id: v.source_id != null, template_id: v.template_id != null, schedule: v.schedule != null, workflow_nodes: v.workflow_nodes != null },
      ...(nodes ? { nodes } : {}),
    };
    for (const p of workflowRuleProblems(view, { now: new Date(), registry })) addCodedIssue(ctx, p.code, p.path, p.message);
  };
}

/**
 * The zod schemas of a workflow body for the nodes a registry holds (an engine's `registry`):
 * `node` (one node, settings checked by its node's schema), `create` (POST /workflows) and
 * `update` (PUT /workflows/{id}: every field optional, absent means unchanged), each with every
 * rule checked as of now. Nulls are read as "omitted" and dropped from the output. Prefer
 * {@link validateWorkflow}: it reports every problem at once (these schemas stop at structural
 * errors before checking rules) and takes a clock.
 *
 * @example
 * ```ts
 * const { create } = workflowBodySchemas(engine.registry);
 * const body = create.parse(JSON.parse(text));
 * ```
 */
export function workflowBodySchemas(registry: ListingRegistryView) {
  const node = workflowNodeSchema(registry);
  const create = zod()
    .strictObject(createFields(zod().array(node)))
    .superRefine(ruleRefinement('create', registry))
    .transform(withoutNulls)
    .meta({ title: 'Workflow create body', description: 'POST /workflows' });
  const update = zod()
    .strictObject(updateFields(zod().array(node)))
    .superRefine(ruleRefinement('update', registry))
    .transform(withoutNulls)
    .meta({ title: 'Workflow update body', description: 'PUT /workflows/{workflow_id}' });
  return { node, create, update };
}
