import type { z } from 'zod';
import { NODE_TYPES } from '../plugin/types.js';
import { SCHEDULE_PHRASE_LIST, normalizeSchedulePhrase, unknownScheduleMessage, type SchedulePhrase } from './schedule.js';
import { addCodedIssue, describeValue, quoteList } from './schema-helpers.js';
import { lazySchema, zod } from './zod-lib.js';

/** Operational workflow types (REST spelling; the Python SDK's `CUSTOM`/`TEMPLATE` are accepted too). */
export const WORKFLOW_TYPES = ['custom', 'template'] as const;
/** An operational workflow type. */
export type WorkflowType = (typeof WORKFLOW_TYPES)[number];

/** Workflow types the Unstructured workflow API calls non-operational (to be removed). */
export const NON_OPERATIONAL_WORKFLOW_TYPES = ['advanced', 'basic', 'platinum'] as const;

/** The operational type `value` spells (case-insensitive), or undefined. */
export function normalizeWorkflowType(value: unknown): WorkflowType | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return (WORKFLOW_TYPES as readonly string[]).includes(lower) ? (lower as WorkflowType) : undefined;
}

/** `workflow_type`: custom | template; advanced/basic/platinum and the automatic type get their own codes. */
export const workflowTypeField = lazySchema(() =>
  zod()
    .string({ error: (iss) => `workflow_type must be "custom" or "template"; got ${describeValue(iss.input)}` })
    .superRefine((v, ctx) => {
      if (normalizeWorkflowType(v)) return;
      const lower = v.trim().toLowerCase();
      if ((NON_OPERATIONAL_WORKFLOW_TYPES as readonly string[]).includes(lower)) {
        addCodedIssue(
          ctx,
          'workflow_type.non_operational',
          [],
          `workflow_type ${JSON.stringify(v)} is non-operational and will be removed in a future release; use "custom" or "template"`,
        );
      } else if (lower === 'auto' || lower === 'automatic') {
        addCodedIssue(
          ctx,
          'workflow_type.unavailable',
          [],
          `workflow_type ${JSON.stringify(v)}: an automatic workflow type is not available; use "custom" or "template"`,
        );
      } else {
        addCodedIssue(ctx, 'schema.invalid_value', [], `workflow_type must be "custom" or "template"; got ${JSON.stringify(v)}`);
      }
    })
    .transform((v) => normalizeWorkflowType(v) as WorkflowType)
    .meta({ enum: [...WORKFLOW_TYPES], description: '"custom" (lists workflow_nodes) or "template" (references template_id)' }),
);

/** `schedule`: one of the predefined phrases (case and blank runs forgiven). */
export const scheduleField = lazySchema(() =>
  zod()
    .string({ error: (iss) => unknownScheduleMessage(iss.input) })
    .superRefine((v, ctx) => {
      if (!normalizeSchedulePhrase(v)) addCodedIssue(ctx, 'schedule.unknown_phrase', [], unknownScheduleMessage(v));
    })
    .transform((v) => normalizeSchedulePhrase(v) as SchedulePhrase)
    .meta({ enum: [...SCHEDULE_PHRASE_LIST], description: 'repeating run; omit for none; not allowed with a local source' }),
);

/** A non-empty id or name. */
export const nonEmpty = (what: string) =>
  zod()
    .string({ error: (iss) => (iss.input === undefined ? `${what} is required` : `${what} must be a string; got ${describeValue(iss.input)}`) })
    .min(1, { error: `${what} must not be empty` });

/** A node's `type`: one of the four kinds, with its own code for anything else. */
export const nodeTypeField = lazySchema(() =>
  zod()
    .string({
      error: (iss) =>
        iss.input === undefined ? `node type is required: one of ${quoteList(NODE_TYPES)}` : `node type must be a string; got ${describeValue(iss.input)}`,
    })
    .superRefine((v, ctx) => {
      if (!(NODE_TYPES as readonly string[]).includes(v))
        addCodedIssue(ctx, 'node.unknown_type', [], `unknown node type ${JSON.stringify(v)}; allowed: ${quoteList(NODE_TYPES)}`);
    }),
);

/** The top-level fields of a create body, `workflow_nodes` given by the caller. */
export function createFields<N extends z.ZodType>(nodes: N) {
  return {
    name: nonEmpty('name').describe('unique name of the workflow'),
    source_id: nonEmpty('source_id').nullish().describe('source connector id; omit for a local source'),
    destination_id: nonEmpty('destination_id').nullish().describe('destination connector id; omit for a local destination'),
    workflow_type: workflowTypeField(),
    reprocess_all: zod().boolean().default(true).describe('true: every run reprocesses all documents; false: only new or changed ones (blob-storage sources)'),
    template_id: nonEmpty('template_id').nullish().describe('required when workflow_type is "template"'),
    workflow_nodes: nodes.nullish().describe('ordered nodes; required for "custom", omitted for "template"'),
    schedule: scheduleField().nullish(),
  };
}

/** The top-level fields of an update body: every field optional, no defaults (absent means unchanged). */
export function updateFields<N extends z.ZodType>(nodes: N) {
  return {
    name: nonEmpty('name').optional(),
    source_id: nonEmpty('source_id').nullish(),
    destination_id: nonEmpty('destination_id').nullish(),
    workflow_type: workflowTypeField().optional(),
    reprocess_all: zod().boolean().optional(),
    template_id: nonEmpty('template_id').nullish(),
    workflow_nodes: nodes.nullish(),
    schedule: scheduleField().nullish(),
  };
}

/** Top-level field names of the workflow body. */
export const workflowFields = lazySchema(() => Object.keys(createFields(zod().unknown())));

/** Field names of a workflow node. */
export const NODE_FIELDS = ['id', 'name', 'type', 'subtype', 'settings'] as const;

/** Removes keys whose value is null or undefined (null means "omitted" in the body). */
export function withoutNulls<T extends object>(v: T): { [K in keyof T]: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined)) as { [K in keyof T]: Exclude<T[K], null> };
}
