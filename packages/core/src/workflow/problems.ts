import { jsonPointer } from '../plugin/settings.js';

/**
 * Every problem code workflow validation can report, sorted, with a one-line meaning. Codes are
 * `<area>.<what>`; `schema.*` codes are structural (types, required fields, allowed values), the
 * others are workflow rules and the rules the built-in nodes declare. A test checks that every emitted code is listed here and in the README.
 */
export const PROBLEM_CODES = {
  'chunking.combine_text_negative': "a chunk_by_title node's combine_text_under_n_chars is below 0",
  'chunking.combine_text_too_large': "combine_text_under_n_chars exceeds the chunker's max_characters (500 when unset)",
  'chunking.max_characters_not_positive': "a chunker's max_characters is 0 or below",
  'chunking.new_after_n_chars_negative': "a chunker's new_after_n_chars is below 0",
  'chunking.overlap_too_large': "a chunker's overlap is not below its max_characters (500 when unset)",
  'custom.template_id_not_allowed': 'a custom workflow gives a template_id',
  'custom.workflow_nodes_required': 'a custom workflow (or an update that sets nodes) has no workflow_nodes',
  'embed.unknown_model': "the embedder's model_name is not a known model of its subtype (checked only with a registry)",
  'enrichment.no_output_with_fast': 'an image/table/OCR enrichment node follows a Fast partitioner, which never feeds it',
  'enrichment.not_allowed_with_vlm': 'an image/table/OCR enrichment node follows a VLM partitioner (is_dynamic false)',
  'local.custom_required': 'a workflow without source_id (local source) is not of workflow_type custom',
  'local.schedule_not_allowed': 'a workflow without source_id (local source) has a schedule',
  'model.provider_mismatch': 'a model id clearly belongs to another provider than the one configured',
  'model.retired': 'a partitioner or prompter model was retired and fails from its retirement date',
  'ner.prompt_json_keys': 'a NER prompt override does not ask for the JSON keys items/entity/type/relationships/from/relationship/to',
  'ner.prompt_text_placeholder': 'a NER prompt override lacks {{text}} between [START OF TEXT] and [END OF TEXT]',
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
  'partition.auto_requires_allow_fast': 'an Auto partitioner (vlm, is_dynamic true) does not set allow_fast: true explicitly',
  'prompter.provider_not_allowed': 'a prompter subtype names a provider that its task does not support',
  'prompter.provider_type_mismatch': "a prompter's settings.provider_type differs from the provider in its subtype",
  'prompter.twopass_settings_not_allowed': 'a twopass_table2html node gives provider_type or model',
  'schedule.unknown_phrase': 'schedule is not one of the predefined phrases',
  'schema.invalid_type': 'a value has the wrong JSON type',
  'schema.invalid_value': 'a value is not one of the allowed values (or otherwise not allowed by the schema)',
  'schema.out_of_range': 'a number (or a length) is outside its allowed range',
  'schema.required': 'a required field or setting is missing',
  'schema.too_short': 'a string or array is empty (or shorter than allowed)',
  'schema.unknown_key': 'a field or setting is not part of the schema',
  'settings.invalid': "a node's settings fail its JSON Schema (zod schemas report schema.* codes)",
  'settings.not_applicable': "a setting of another subtype of the same node type (e.g. multipage_sections on chunk_by_page)",
  'template.not_found': 'a template workflow names a template the engine does not know (engine.build)',
  'template.template_id_required': 'a template workflow has no template_id',
  'template.workflow_nodes_not_allowed': 'a template workflow gives workflow_nodes',
  'workflow_type.non_operational': 'workflow_type is advanced, basic or platinum, which are non-operational',
  'workflow_type.unavailable': 'workflow_type asks for the automatic type, which is not available',
} as const;

/** A stable problem code. */
export type ProblemCode = keyof typeof PROBLEM_CODES;

/** True when `code` is a known {@link ProblemCode}. */
export function isProblemCode(code: unknown): code is ProblemCode {
  return typeof code === 'string' && Object.hasOwn(PROBLEM_CODES, code);
}

/** One thing wrong with a workflow body. */
export interface Problem {
  /** Stable code, a key of {@link PROBLEM_CODES}. */
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
