import type { ProblemCodeTable } from '@quarry/core';

/**
 * The workflow problem codes the rules of @quarry/nodes' nodes report (chunker settings, enrichment
 * placement and providers, models, the VLM partitioner), each with a one-line meaning. The
 * README's table is checked against it and `nodesPlugin` declares it at registration; the codes of
 * the workflow's shape (`schema.*`, `order.*`, ...) are core's.
 */
export const NODES_PROBLEM_CODES = {
  'chunking.combine_text_negative': "a chunk_by_title node's combine_text_under_n_chars is below 0",
  'chunking.combine_text_too_large': "combine_text_under_n_chars exceeds the chunker's max_characters (500 when unset)",
  'chunking.max_characters_not_positive': "a chunker's max_characters is 0 or below",
  'chunking.new_after_n_chars_negative': "a chunker's new_after_n_chars is below 0",
  'chunking.overlap_too_large': "a chunker's overlap is not below its max_characters (500 when unset)",
  'enrichment.no_output_with_fast': 'an image/table/OCR enrichment node follows a Fast partitioner, which never feeds it',
  'enrichment.not_allowed_with_vlm': 'an image/table/OCR enrichment node follows a VLM partitioner (is_dynamic false)',
  'model.provider_mismatch': 'a model id clearly belongs to another provider than the one configured',
  'model.retired': 'a partitioner or prompter model was retired and fails from its retirement date',
  'ner.prompt_json_keys': 'a NER prompt override does not ask for the JSON keys items/entity/type/relationships/from/relationship/to',
  'ner.prompt_text_placeholder': 'a NER prompt override lacks {{text}} between [START OF TEXT] and [END OF TEXT]',
  'partition.auto_requires_allow_fast': 'an Auto partitioner (vlm, is_dynamic true) does not set allow_fast: true explicitly',
  'prompter.provider_not_allowed': 'a prompter subtype names a provider that its task does not support',
  'prompter.provider_type_mismatch': "a prompter's settings.provider_type differs from the provider in its subtype",
  'prompter.twopass_settings_not_allowed': 'a twopass_table2html node gives provider_type or model',
} as const satisfies ProblemCodeTable;

type NodesProblemCodes = typeof NODES_PROBLEM_CODES;

// Declares these codes to the type checker wherever @quarry/nodes is imported.
declare module '@quarry/core' {
  interface QuarryProblemCodes extends NodesProblemCodes {}
}
