import { jsonPointer } from '../plugin/settings.js';

/** A table of problem codes: each `<area>.<what>` code with a one-line meaning. */
export type ProblemCodeTable = Readonly<Record<string, string>>;

/**
 * The problem codes core's own validation reports, sorted, with a one-line meaning: the workflow's
 * shape (`schema.*`, `settings.*`), its rules (template/custom, local source, schedule, node order)
 * and the nodes it cannot find. A node's own rules report the codes of the plugin that defines it
 * (`definePlugin({ problemCodes })`); a test checks this table against the README.
 */
export const CORE_PROBLEM_CODES = {
  'custom.template_id_not_allowed': 'a custom workflow gives a template_id',
  'custom.workflow_nodes_required': 'a custom workflow (or an update that sets nodes) has no workflow_nodes',
  'embed.unknown_model': "the embedder's model_name is not a known model of its subtype (checked only with a registry)",
  'local.custom_required': 'a workflow without source_id (local source) is not of workflow_type custom',
  'local.schedule_not_allowed': 'a workflow without source_id (local source) has a schedule',
  'node.not_registered': "a template's node subtype is registered by no plugin (engine.build, which resolves templates after validation)",
  'node.unknown_subtype': 'a node subtype is registered by no plugin (the built-in nodes come with nodesPlugin of @quarry/nodes)',
  'node.unknown_type': 'a node type is not partition, prompter, chunk or embed',
  'order.chunker_before_enrichment': 'a prompter (enrichment) node comes after the chunker',
  'order.embed_not_last': 'the embedder is followed by another node',
  'order.embed_requires_chunker': 'an embedder is present without a chunker before it',
  'order.max_characters_exceeds_model': "the chunker's max_characters exceeds the embedding model's recommended maximum",
  'order.multiple_chunkers': 'more than one chunk node',
  'order.multiple_embedders': 'more than one embed node',
  'order.multiple_partitions': 'more than one partition node',
  'order.partition_not_first': 'the partition node is not the first node',
  'order.partition_required': 'the node list has no partition node',
  'order.stage_mismatch': 'a node consumes a stage (file, elements, chunks) the previous node does not produce (engine.build)',
  'schedule.unknown_phrase': 'schedule is not one of the predefined phrases',
  'schema.invalid_type': 'a value has the wrong JSON type',
  'schema.invalid_value': 'a value is not one of the allowed values (or otherwise not allowed by the schema)',
  'schema.out_of_range': 'a number (or a length) is outside its allowed range',
  'schema.required': 'a required field or setting is missing',
  'schema.too_short': 'a string or array is empty (or shorter than allowed)',
  'schema.unknown_key': 'a field or setting is not part of the schema',
  'settings.invalid': "a node's settings fail its JSON Schema (zod schemas report schema.* codes)",
  'settings.not_applicable': 'a setting of another subtype of the same node type (e.g. multipage_sections on chunk_by_page)',
  'template.not_found': 'a template workflow names a template the engine does not know (engine.build)',
  'template.template_id_required': 'a template workflow has no template_id',
  'template.workflow_nodes_not_allowed': 'a template workflow gives workflow_nodes',
  'workflow_type.non_operational': 'workflow_type is advanced, basic or platinum, which are non-operational',
  'workflow_type.unavailable': 'workflow_type asks for the automatic type, which is not available',
} as const satisfies ProblemCodeTable;

type CoreProblemCodes = typeof CORE_PROBLEM_CODES;

/**
 * Every problem code the type checker knows, code -> meaning: core's, and those each plugin adds
 * beside its own table, so that a node rule reporting `'vcard.bad_version'` typechecks wherever the
 * plugin declaring it is imported.
 *
 * @example
 * ```ts
 * export const VCARD_PROBLEM_CODES = { 'vcard.bad_version': 'a vcard node asks for a version other than 3 or 4' } as const satisfies ProblemCodeTable;
 * type VcardProblemCodes = typeof VCARD_PROBLEM_CODES;
 * declare module '@quarry/core' {
 *   interface QuarryProblemCodes extends VcardProblemCodes {}
 * }
 * ```
 */
export interface QuarryProblemCodes extends CoreProblemCodes {}

/** A stable problem code (see {@link QuarryProblemCodes}). */
export type ProblemCode = keyof QuarryProblemCodes & string;

/** The shape of every problem code: `<area>.<what>`, lower snake case. */
export const PROBLEM_CODE_PATTERN = /^[a-z][a-z0-9_]*\.[a-z0-9_]+$/;

/**
 * True when `code` has the shape of a {@link ProblemCode}: how a settings schema's coded issue is told
 * from the schema library's own issue codes. Which codes exist is the registry's business
 * (`registry.problemCodes()`).
 */
export function isProblemCode(code: unknown): code is ProblemCode {
  return typeof code === 'string' && PROBLEM_CODE_PATTERN.test(code);
}

/** One thing wrong with a workflow body. */
export interface Problem {
  /** Stable code, declared by core or by the plugin whose rule reports it. */
  code: ProblemCode;
  /** JSON pointer (RFC 6901) into the body, e.g. `/workflow_nodes/2/settings/max_characters`; `""` is the body itself. */
  path: string;
  /** What is wrong and how to fix it, for people. */
  message: string;
}

/** Path segments of a value inside the body. */
export type BodyPath = ReadonlyArray<string | number>;

/** A problem whose path is still a list of segments (internal form, joined at the end). */
export interface PathProblem {
  code: ProblemCode;
  path: BodyPath;
  message: string;
}

/** Joins a {@link PathProblem}'s path into a JSON pointer. */
export function toProblem(p: PathProblem): Problem {
  return { code: p.code, path: jsonPointer(p.path), message: p.message };
}

/** Drops repeated problems (same code, path and message), keeping the first. */
export function dedupeProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const k = `${p.code}\u0000${p.path}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
