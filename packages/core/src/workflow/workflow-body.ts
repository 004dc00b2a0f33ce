import { z } from 'zod';
import { chunkByCharacterSettings, chunkByPageSettings, chunkBySimilaritySettings, chunkByTitleSettings } from './chunk-settings.js';
import { EMBED_SUBTYPES, embedSettings } from './embed-settings.js';
import { PROMPTER_TASKS, TWOPASS_TABLE2HTML, type PrompterTask } from './node-kinds.js';
import { partitionUnstructuredApiSettings, partitionVlmSettings } from './partition-settings.js';
import { nerSettings, prompterSettings, twopassTable2htmlSettings } from './prompter-settings.js';
import { PROVIDER_ALIASES, type Provider } from './providers.js';
import { addCodedIssue, oneOf } from './schema-helpers.js';
import { createFields, nonEmpty, updateFields, withoutNulls } from './workflow-fields.js';
import { workflowRuleProblems, type NodeView, type WorkflowView } from './workflow-rules.js';

function nodeObject<const T extends string, Sub extends z.ZodType, S extends z.ZodType>(type: T, subtype: Sub, settings: S) {
  return z.strictObject({
    id: nonEmpty('node id').optional().describe('node id (present in responses)'),
    name: nonEmpty('node name').describe('node label'),
    type: z.literal(type),
    subtype,
    // prefault (not default) so an omitted settings object is still parsed: required settings are reported.
    settings: settings.prefault({} as z.input<S>),
  });
}

/** `provider_a_ner`-style spellings of a prompter subtype, rewritten to the real name. */
function prompterSubtype<const S extends string>(provider: Provider, task: PrompterTask, subtype: S) {
  const aliases = Object.entries(PROVIDER_ALIASES)
    .filter(([, real]) => real === provider)
    .map(([alias]) => `${alias}_${task}`);
  return z.enum([subtype, ...aliases]).transform((): S => subtype);
}

const partitionNode = z.discriminatedUnion('subtype', [
  nodeObject('partition', z.literal('vlm'), partitionVlmSettings),
  nodeObject('partition', z.literal('unstructured_api'), partitionUnstructuredApiSettings),
]);

const taskNodes = Object.entries(PROMPTER_TASKS).flatMap(([task, providers]) =>
  providers.map((p) => nodeObject('prompter', prompterSubtype(p, task as PrompterTask, `${p}_${task}`), task === 'ner' ? nerSettings : prompterSettings)),
);
const prompterNode = z.discriminatedUnion('subtype', [nodeObject('prompter', z.literal(TWOPASS_TABLE2HTML), twopassTable2htmlSettings), ...taskNodes] as const);

const chunkNode = z.discriminatedUnion('subtype', [
  nodeObject('chunk', z.literal('chunk_by_character'), chunkByCharacterSettings),
  nodeObject('chunk', z.literal('chunk_by_title'), chunkByTitleSettings),
  nodeObject('chunk', z.literal('chunk_by_page'), chunkByPageSettings),
  nodeObject('chunk', z.literal('chunk_by_similarity'), chunkBySimilaritySettings),
]);

const embedNode = nodeObject('embed', oneOf(EMBED_SUBTYPES, 'embed subtype'), embedSettings);

/**
 * One SPEC.md workflow node: `{ id?, name, type, subtype, settings }`, settings checked against the
 * subtype's schema. Plugin node kinds are accepted by {@link validateWorkflow} with a registry, not here.
 */
export const workflowNode = z.discriminatedUnion('type', [partitionNode, prompterNode, chunkNode, embedNode], {
  error: (iss) =>
    iss.code === 'invalid_union'
      ? 'a node needs type partition|prompter|chunk|embed and a SPEC.md subtype of that type (plugin subtypes: use validateWorkflow with a registry)'
      : undefined,
});
/** A parsed SPEC.md node. */
export type WorkflowNode = z.output<typeof workflowNode>;
/** A SPEC.md node as written. */
export type WorkflowNodeInput = z.input<typeof workflowNode>;

function ruleRefinement(mode: 'create' | 'update') {
  return (v: { workflow_type?: string | null; source_id?: unknown; template_id?: unknown; schedule?: unknown; workflow_nodes?: WorkflowNode[] | null }, ctx: z.RefinementCtx) => {
    const nodes: NodeView[] | undefined = v.workflow_nodes?.map((n, index) => ({
      index,
      name: n.name,
      type: n.type,
      subtype: n.subtype,
      spec: true,
      settings: n.settings as Record<string, unknown>,
    }));
    const view: WorkflowView = {
      mode,
      ...(v.workflow_type === 'custom' || v.workflow_type === 'template' ? { workflowType: v.workflow_type } : {}),
      has: { source_id: v.source_id != null, template_id: v.template_id != null, schedule: v.schedule != null, workflow_nodes: v.workflow_nodes != null },
      ...(nodes ? { nodes } : {}),
    };
    for (const p of workflowRuleProblems(view, { now: new Date() })) addCodedIssue(ctx, p.code, p.path, p.message);
  };
}

/**
 * The workflow create body of SPEC.md (POST /workflows), with every rule checked as of now. Nulls
 * are read as "omitted" and dropped from the output. Prefer {@link validateWorkflow}: it reports
 * every problem at once (this schema stops at structural errors before checking rules), takes plugin
 * node kinds and a clock, and checks embedding models against a registry.
 */
export const workflowCreateBody = z
  .strictObject(createFields(z.array(workflowNode)))
  .superRefine(ruleRefinement('create'))
  .transform(withoutNulls)
  .meta({ title: 'Workflow create body', description: 'POST /workflows' });
/** A parsed create body (defaults applied, provider aliases rewritten). */
export type WorkflowCreateBody = z.output<typeof workflowCreateBody>;
/** A create body as written. */
export type WorkflowCreateBodyInput = z.input<typeof workflowCreateBody>;

/**
 * The workflow update body (PUT /workflows/{id}): every field optional, absent means unchanged.
 * Rules that need the stored workflow (template_id for a template, local-source rules) are left to
 * the service, which should validate the merged workflow as a create body.
 */
export const workflowUpdateBody = z
  .strictObject(updateFields(z.array(workflowNode)))
  .superRefine(ruleRefinement('update'))
  .transform(withoutNulls)
  .meta({ title: 'Workflow update body', description: 'PUT /workflows/{workflow_id}' });
/** A parsed update body. */
export type WorkflowUpdateBody = z.output<typeof workflowUpdateBody>;
/** An update body as written. */
export type WorkflowUpdateBodyInput = z.input<typeof workflowUpdateBody>;
