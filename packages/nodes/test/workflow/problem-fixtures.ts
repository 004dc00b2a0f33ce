import type { ProblemCode, ValidateWorkflowOptions } from '@quarry/core';
import { customBody, nodes, testRegistry } from './helpers.js';

/** A body that must produce `code` at `path` (among possibly other problems). */
export interface ProblemFixture {
  code: ProblemCode;
  path: string;
  body: unknown;
  options?: ValidateWorkflowOptions;
}

const NER_PROMPT_OK = [
  'Extract entities and relationships. Return JSON with "items" (each with "entity" and "type") and',
  '"relationships" (each with "from", "relationship" and "to").',
  '[START OF TEXT]',
  '{{text}}',
  '[END OF TEXT]',
].join('\n');

/** One triggering body per problem code; a test checks that every code core and nodesPlugin declare has one. */
export const PROBLEM_FIXTURES: ProblemFixture[] = [
  {
    code: 'chunking.combine_text_negative',
    path: '/workflow_nodes/1/settings/combine_text_under_n_chars',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_title', { combine_text_under_n_chars: -1 })]),
  },
  {
    code: 'chunking.combine_text_too_large',
    path: '/workflow_nodes/1/settings/combine_text_under_n_chars',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_title', { combine_text_under_n_chars: 600 })]),
  },
  {
    code: 'chunking.max_characters_not_positive',
    path: '/workflow_nodes/1/settings/max_characters',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_page', { max_characters: 0 })]),
  },
  {
    code: 'chunking.new_after_n_chars_negative',
    path: '/workflow_nodes/1/settings/new_after_n_chars',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_character', { new_after_n_chars: -1 })]),
  },
  {
    code: 'chunking.overlap_too_large',
    path: '/workflow_nodes/1/settings/overlap',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_similarity', { max_characters: 200, overlap: 300 })]),
  },
  { code: 'custom.template_id_not_allowed', path: '/template_id', body: customBody(undefined, { template_id: 'hi_res_partition' }) },
  { code: 'custom.workflow_nodes_required', path: '/workflow_nodes', body: customBody([]) },
  {
    code: 'embed.unknown_model',
    path: '/workflow_nodes/2/settings/model_name',
    body: customBody([nodes.auto(), nodes.chunk(), nodes.embed('bedrock', 'titan-9000')]),
    options: { registry: testRegistry() },
  },
  { code: 'enrichment.no_output_with_fast', path: '/workflow_nodes/1', body: customBody([nodes.fast(), nodes.imageDescription(), nodes.chunk()]) },
  { code: 'enrichment.not_allowed_with_vlm', path: '/workflow_nodes/1', body: customBody([nodes.vlm(), nodes.imageDescription(), nodes.chunk()]) },
  { code: 'local.custom_required', path: '/workflow_type', body: { name: 'wf', workflow_type: 'template', template_id: 'hi_res_partition' } },
  { code: 'local.schedule_not_allowed', path: '/schedule', body: customBody(undefined, { source_id: undefined, schedule: 'daily' }) },
  {
    code: 'model.provider_mismatch',
    path: '/workflow_nodes/0/settings/model',
    body: customBody([nodes.auto({ provider: 'openai', model: 'claude-sonnet-4-20250514' }), nodes.chunk()]),
  },
  {
    code: 'model.retired',
    path: '/workflow_nodes/0/settings/model',
    body: customBody([nodes.auto({ model: 'claude-3-5-sonnet-20241022' }), nodes.chunk()]),
    options: { now: new Date('2025-10-22T00:00:00Z') },
  },
  {
    code: 'ner.prompt_json_keys',
    path: '/workflow_nodes/1/settings/prompt_interface_overrides/prompt/user',
    body: customBody([nodes.auto(), nodes.ner({ prompt_interface_overrides: { prompt: { user: '[START OF TEXT]{{text}}[END OF TEXT]' } } }), nodes.chunk()]),
  },
  {
    code: 'ner.prompt_text_placeholder',
    path: '/workflow_nodes/1/settings/prompt_interface_overrides/prompt/user',
    body: customBody([
      nodes.auto(),
      nodes.ner({ prompt_interface_overrides: { prompt: { user: NER_PROMPT_OK.replace('{{text}}', '{text}') } } }),
      nodes.chunk(),
    ]),
  },
  { code: 'node.unknown_subtype', path: '/workflow_nodes/1/subtype', body: customBody([nodes.auto(), nodes.chunk('chunk_by_paragraph')]) },
  { code: 'node.unknown_type', path: '/workflow_nodes/1/type', body: customBody([nodes.auto(), { name: 'x', type: 'extract', subtype: 'llm', settings: {} }]) },
  { code: 'order.chunker_before_enrichment', path: '/workflow_nodes/2', body: customBody([nodes.hiRes(), nodes.chunk(), nodes.ner()]) },
  { code: 'order.embed_not_last', path: '/workflow_nodes/1', body: customBody([nodes.auto(), nodes.embed(), nodes.chunk()]) },
  { code: 'order.embed_requires_chunker', path: '/workflow_nodes/1', body: customBody([nodes.auto(), nodes.embed()]) },
  {
    code: 'order.max_characters_exceeds_model',
    path: '/workflow_nodes/1/settings/max_characters',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_title', { max_characters: 2000 }), nodes.embed()]),
    options: { registry: testRegistry() },
  },
  { code: 'order.multiple_chunkers', path: '/workflow_nodes/2', body: customBody([nodes.auto(), nodes.chunk(), nodes.chunk('chunk_by_page')]) },
  { code: 'order.multiple_embedders', path: '/workflow_nodes/3', body: customBody([nodes.auto(), nodes.chunk(), nodes.embed(), nodes.embed()]) },
  { code: 'order.multiple_partitions', path: '/workflow_nodes/1', body: customBody([nodes.auto(), nodes.hiRes(), nodes.chunk()]) },
  { code: 'order.partition_not_first', path: '/workflow_nodes/1', body: customBody([nodes.chunk(), nodes.auto()]) },
  { code: 'order.partition_required', path: '/workflow_nodes', body: customBody([nodes.chunk()]) },
  {
    code: 'partition.auto_requires_allow_fast',
    path: '/workflow_nodes/0/settings/allow_fast',
    body: customBody([{ name: 'Auto', type: 'partition', subtype: 'vlm', settings: { is_dynamic: true } }]),
  },
  {
    code: 'prompter.provider_not_allowed',
    path: '/workflow_nodes/1/subtype',
    body: customBody([nodes.auto(), nodes.prompter('vertexai_ner', { provider_type: 'vertexai', model: 'gemini-2.0-flash-001' })]),
  },
  {
    code: 'prompter.provider_type_mismatch',
    path: '/workflow_nodes/1/settings/provider_type',
    body: customBody([nodes.auto(), nodes.prompter('anthropic_table_description', { provider_type: 'openai', model: 'gpt-4o' })]),
  },
  {
    code: 'prompter.twopass_settings_not_allowed',
    path: '/workflow_nodes/1/settings/provider_type',
    body: customBody([nodes.auto(), nodes.prompter('twopass_table2html', { provider_type: 'anthropic' })]),
  },
  { code: 'schedule.unknown_phrase', path: '/schedule', body: customBody(undefined, { schedule: 'hourly' }) },
  { code: 'schema.invalid_type', path: '/reprocess_all', body: customBody(undefined, { reprocess_all: 'yes' }) },
  { code: 'schema.invalid_value', path: '/workflow_nodes/0/settings/output_format', body: customBody([nodes.auto({ output_format: 'text/markdown' })]) },
  {
    code: 'schema.out_of_range',
    path: '/workflow_nodes/1/settings/similarity_threshold',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_similarity', { similarity_threshold: 1 })]),
  },
  {
    code: 'schema.required',
    path: '/workflow_nodes/0/settings/strategy',
    body: customBody([{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: {} }]),
  },
  { code: 'schema.too_short', path: '/name', body: customBody(undefined, { name: '' }) },
  { code: 'schema.unknown_key', path: '/workflow_nodes/0/settings/temperature', body: customBody([nodes.auto({ temperature: 0 })]) },
  {
    code: 'settings.invalid',
    path: '/workflow_nodes/1/settings/max_sentences',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_sentence', { max_sentences: 0 })]),
    options: { registry: testRegistry() },
  },
  {
    code: 'settings.not_applicable',
    path: '/workflow_nodes/1/settings/multipage_sections',
    body: customBody([nodes.auto(), nodes.chunk('chunk_by_page', { multipage_sections: true })]),
  },
  { code: 'template.template_id_required', path: '/template_id', body: { name: 'wf', source_id: 's', workflow_type: 'template' } },
  {
    code: 'template.workflow_nodes_not_allowed',
    path: '/workflow_nodes',
    body: { name: 'wf', source_id: 's', workflow_type: 'template', template_id: 'hi_res_partition', workflow_nodes: [nodes.auto()] },
  },
  { code: 'workflow_type.non_operational', path: '/workflow_type', body: customBody(undefined, { workflow_type: 'platinum' }) },
  { code: 'workflow_type.unavailable', path: '/workflow_type', body: customBody(undefined, { workflow_type: 'auto' }) },
];

export { NER_PROMPT_OK };
