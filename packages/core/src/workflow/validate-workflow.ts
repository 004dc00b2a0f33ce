import { parseSettings } from '../plugin/settings.js';
import { NODE_TYPES, type NodeDefinition, type NodeType } from '../plugin/types.js';
import type { NodeView } from './node-view.js';
import { dedupeProblems, toProblem, type BodyPath, type PathProblem, type Problem } from './problems.js';
import type { WorkflowRegistryView } from '../plugin/types.js';
import type { SchedulePhrase } from './schedule.js';
import { asRecord, describeValue } from './schema-helpers.js';
import {
  NODE_FIELDS,
  createFields,
  nodeTypeField,
  nonEmpty,
  normalizeWorkflowType,
  updateFields,
  withoutNulls,
  workflowFields,
  type WorkflowType,
} from './workflow-fields.js';
import { lazySchema, zod } from './zod-lib.js';
import { workflowRuleProblems } from './workflow-rules.js';
import { zodIssuesToProblems, type UnknownKeyHandler } from './zod-problems.js';
import { isZodSchema, settingKeysOf } from './setting-keys.js';

/** Options of {@link validateWorkflow}. */
export interface ValidateWorkflowOptions {
  /** `create` (default) checks a POST body; `update` a PUT body, where every field is optional. */
  mode?: 'create' | 'update';
  /** Clock for date-dependent rules (retired models); default the current time. */
  now?: Date;
  /**
   * The registered nodes (an engine's `registry`, holding `nodesPlugin` for the built-in nodes):
   * each node's subtype, settings and own rules come from its definition, and the embedding-model
   * checks of node ordering rule 5 from its embedding models. Without it no subtype is known and
   * only the workflow's shape is checked.
   */
  registry?: WorkflowRegistryView;
}

/** A validated node: subtype aliases rewritten and settings defaults applied. */
export interface ValidWorkflowNode {
  id?: string;
  name: string;
  type: NodeType;
  subtype: string;
  settings: Record<string, unknown>;
}

/** A validated create body, defaults applied; fields given as null are left out. */
export interface ValidWorkflow {
  name: string;
  source_id?: string;
  destination_id?: string;
  workflow_type: WorkflowType;
  reprocess_all: boolean;
  template_id?: string;
  workflow_nodes?: ValidWorkflowNode[];
  schedule?: SchedulePhrase;
}

/** A validated update body: only the fields given (absent means unchanged). */
export type ValidWorkflowUpdate = { [K in keyof ValidWorkflow]?: ValidWorkflow[K] };

/** Result of {@link validateWorkflow}: the parsed body, or every problem found. */
export type WorkflowValidation<T = ValidWorkflow> = { valid: true; value: T; problems: [] } | { valid: false; problems: Problem[] };

const createShell = lazySchema(() => zod().strictObject(createFields(zod().array(zod().unknown()))));
const updateShell = lazySchema(() => zod().strictObject(updateFields(zod().array(zod().unknown()))));

const nodeEnvelope = lazySchema(() =>
  zod().strictObject({
    id: nonEmpty('node id').optional(),
    name: nonEmpty('node name'),
    type: nodeTypeField(),
    subtype: nonEmpty('node subtype'),
    settings: zod()
      .record(zod().string(), zod().unknown(), { error: (iss) => `node settings must be an object; got ${describeValue(iss.input)}` })
      .nullish(),
  }),
);

const topUnknownKey: UnknownKeyHandler = (key, parent) =>
  parent.length
    ? undefined
    : { code: 'schema.unknown_key', message: `unknown field ${JSON.stringify(key)}; workflow fields are ${workflowFields().join(', ')}` };

const nodeUnknownKey: UnknownKeyHandler = (key, parent) =>
  parent.length ? undefined : { code: 'schema.unknown_key', message: `unknown node field ${JSON.stringify(key)}; a node has ${NODE_FIELDS.join(', ')}` };

function settingsUnknownKey(def: NodeDefinition<unknown>, registry: WorkflowRegistryView): UnknownKeyHandler {
  return (key, parent) => {
    if (parent.length) return undefined;
    const special = def.unknownSetting?.(key);
    if (special) return special;
    const siblings = (registry.nodeSubtypes?.(def.type) ?? []).filter((s) => {
      const sibling = s === def.subtype ? undefined : registry.findNode(def.type, s);
      return sibling !== undefined && settingKeysOf(sibling).includes(key);
    });
    if (siblings.length) {
      return {
        code: 'settings.not_applicable',
        message: `setting ${JSON.stringify(key)} applies only to ${def.type} subtype${siblings.length > 1 ? 's' : ''} ${siblings.join(', ')}, not ${def.subtype}`,
      };
    }
    return {
      code: 'schema.unknown_key',
      message: `unknown setting ${JSON.stringify(key)} for ${def.type}/${def.subtype}; allowed: ${settingKeysOf(def).join(', ') || '(none)'}`,
    };
  };
}

function pointerSegments(pointer: string): string[] {
  return pointer
    ? pointer
        .split('/')
        .slice(1)
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    : [];
}

function unknownSubtype(type: NodeType, subtype: string, path: BodyPath, registry: WorkflowRegistryView | undefined): PathProblem {
  const registered = registry?.nodeSubtypes?.(type) ?? [];
  for (const s of registered) {
    const worded = registry?.findNode(type, s)?.unknownSubtype?.(subtype, registered);
    if (worded) return { ...worded, path };
  }
  return { code: 'node.unknown_subtype', path, message: `unknown ${type} subtype ${JSON.stringify(subtype)}; allowed: ${registered.join(', ')}` };
}

/** Parses a node's settings with its definition's schema: zod issues keep their codes, JSON Schema problems are `settings.invalid`. */
function nodeSettingsProblems(
  def: NodeDefinition<unknown>,
  raw: Record<string, unknown>,
  path: BodyPath,
  registry: WorkflowRegistryView,
): { parsed?: Record<string, unknown>; problems: PathProblem[] } {
  if (isZodSchema(def.settings)) {
    const r = def.settings.safeParse(raw, { reportInput: true });
    if (r.success) return { parsed: asRecord(r.data), problems: [] };
    return { problems: zodIssuesToProblems(r.error.issues, { base: path, input: raw, noun: 'setting', unknownKey: settingsUnknownKey(def, registry) }) };
  }
  const r = parseSettings(def.settings, raw);
  if (r.ok) return { parsed: asRecord(r.value), problems: [] };
  return { problems: r.problems.map((p) => ({ code: 'settings.invalid', path: [...path, ...pointerSegments(p.path)], message: p.message })) };
}

interface NodeResult {
  view: NodeView;
  value?: ValidWorkflowNode;
  problems: PathProblem[];
}

function validateNode(raw: unknown, index: number, registry: WorkflowRegistryView | undefined): NodeResult {
  const base: BodyPath = ['workflow_nodes', index];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      view: { index, registered: false, settings: {} },
      problems: [{ code: 'schema.invalid_type', path: base, message: `a node must be an object with ${NODE_FIELDS.join(', ')}; got ${describeValue(raw)}` }],
    };
  }
  const node = raw as Record<string, unknown>;
  const problems: PathProblem[] = [];
  const envelope = nodeEnvelope().safeParse(node, { reportInput: true });
  if (!envelope.success) problems.push(...zodIssuesToProblems(envelope.error.issues, { base, input: node, noun: 'node field', unknownKey: nodeUnknownKey }));

  const type = (NODE_TYPES as readonly unknown[]).includes(node.type) ? (node.type as NodeType) : undefined;
  const subtype = typeof node.subtype === 'string' && node.subtype ? node.subtype : undefined;
  const rawSettings =
    node.settings === undefined || node.settings === null
      ? {}
      : typeof node.settings === 'object' && !Array.isArray(node.settings)
        ? (node.settings as Record<string, unknown>)
        : undefined;
  const settingsPath: BodyPath = [...base, 'settings'];

  let def: NodeDefinition<unknown> | undefined;
  let parsed: Record<string, unknown> | undefined;
  if (type && subtype) {
    def = registry?.findNode(type, subtype);
    if (def && registry) {
      if (rawSettings) {
        const r = nodeSettingsProblems(def, rawSettings, settingsPath, registry);
        parsed = r.parsed;
        problems.push(...r.problems);
      }
    } else {
      problems.push(unknownSubtype(type, subtype, [...base, 'subtype'], registry));
    }
  }
  const resolvedSubtype = def?.subtype ?? subtype;

  const view: NodeView = {
    index,
    ...(typeof node.name === 'string' ? { name: node.name } : {}),
    ...(type ? { type } : {}),
    ...(resolvedSubtype ? { subtype: resolvedSubtype } : {}),
    registered: def !== undefined,
    settings: parsed ?? rawSettings ?? {},
  };
  const value: ValidWorkflowNode | undefined =
    problems.length === 0 && type && resolvedSubtype && parsed
      ? { ...(typeof node.id === 'string' ? { id: node.id } : {}), name: node.name as string, type, subtype: resolvedSubtype, settings: parsed }
      : undefined;
  return value ? { view, value, problems } : { view, problems };
}

/**
 * Validates a workflow create (or update) body: structure, every node type, subtype and setting
 * (each against its registered node's schema), the workflow rules (template/custom, local source,
 * schedule, node ordering 1-5) and each registered node's own rules ({@link NodeDefinition.check}:
 * partitioner/enrichment conditions, prompter providers, retired models, ...). Returns every problem at once, each with a stable code and a JSON pointer;
 * never throws on bad input.
 *
 * @example
 * ```ts
 * const r = validateWorkflow(body, { registry: engine.registry });
 * if (!r.valid) for (const p of r.problems) console.log(p.code, p.path, p.message);
 * else console.log(r.value.workflow_nodes);
 * ```
 */
export function validateWorkflow(body: unknown, options: ValidateWorkflowOptions & { mode: 'update' }): WorkflowValidation<ValidWorkflowUpdate>;
export function validateWorkflow(body: unknown, options?: ValidateWorkflowOptions & { mode?: 'create' }): WorkflowValidation<ValidWorkflow>;
export function validateWorkflow(body: unknown, options?: ValidateWorkflowOptions): WorkflowValidation<ValidWorkflow | ValidWorkflowUpdate>;
export function validateWorkflow(body: unknown, options: ValidateWorkflowOptions = {}): WorkflowValidation<ValidWorkflow | ValidWorkflowUpdate> {
  const mode = options.mode ?? 'create';
  const now = options.now ?? new Date();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      valid: false,
      problems: [{ code: 'schema.invalid_type', path: '', message: `a workflow body must be a JSON object; got ${describeValue(body)}` }],
    };
  }
  const raw = body as Record<string, unknown>;
  const problems: PathProblem[] = [];

  const shell = (mode === 'create' ? createShell() : updateShell()).safeParse(raw, { reportInput: true });
  if (!shell.success) problems.push(...zodIssuesToProblems(shell.error.issues, { base: [], input: raw, noun: 'field', unknownKey: topUnknownKey }));

  const nodes = Array.isArray(raw.workflow_nodes) ? raw.workflow_nodes.map((n, i) => validateNode(n, i, options.registry)) : undefined;
  for (const n of nodes ?? []) problems.push(...n.problems);

  const workflowType = normalizeWorkflowType(raw.workflow_type);
  const present = (k: string) => raw[k] !== undefined && raw[k] !== null;
  problems.push(
    ...workflowRuleProblems(
      {
        mode,
        ...(workflowType ? { workflowType } : {}),
        has: { source_id: present('source_id'), template_id: present('template_id'), schedule: present('schedule'), workflow_nodes: present('workflow_nodes') },
        ...(nodes ? { nodes: nodes.map((n) => n.view) } : {}),
      },
      { now, ...(options.registry ? { registry: options.registry } : {}) },
    ),
  );

  if (problems.length || !shell.success) return { valid: false, problems: dedupeProblems(problems.map(toProblem)) };
  const top = withoutNulls(shell.data as Record<string, unknown>);
  const value = nodes ? { ...top, workflow_nodes: nodes.map((n) => n.value as ValidWorkflowNode) } : top;
  return { valid: true, value: value as unknown as ValidWorkflow | ValidWorkflowUpdate, problems: [] };
}
