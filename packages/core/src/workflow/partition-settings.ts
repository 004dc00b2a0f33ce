import { z } from 'zod';
import { PROVIDER_SPELLINGS, VLM_DEFAULT_MODELS, modelProviderMismatch, normalizeProvider, type Provider } from './providers.js';
import { addCodedIssue, asRecord, oneOf, strictSettings } from './schema-helpers.js';

/** Element types a High Res/Fast partitioner may drop (`exclude_elements`, SPEC.md). */
export const EXCLUDE_ELEMENT_TYPES = [
  'Address',
  'EmailAddress',
  'FigureCaption',
  'Footer',
  'Formula',
  'Header',
  'Image',
  'ListItem',
  'NarrativeText',
  'PageBreak',
  'Table',
  'Title',
  'UncategorizedText',
] as const;

/** Element types whose image blocks may be stored as Base64 (`extract_image_block_types`, SPEC.md). */
export const EXTRACT_IMAGE_BLOCK_TYPES = [
  'Abstract',
  'BulletedText',
  'Caption',
  'CodeSnippet',
  'CompositeElement',
  'Figure',
  'FigureCaption',
  'Form',
  'FormKeysValues',
  'Formula',
  'Header',
  'Image',
  'List',
  'List-item',
  'ListItem',
  'NarrativeText',
  'Paragraph',
  'Picture',
  'Table',
  'Text',
  'Threading',
  'Title',
  'UncategorizedText',
] as const;

/** Output formats of the VLM/Auto partitioner. */
export const VLM_OUTPUT_FORMATS = ['text/html', 'application/json'] as const;

/** Partitioning strategies of the `unstructured_api` subtype: High Res and Fast. */
export const UNSTRUCTURED_API_STRATEGIES = ['fast', 'hi_res'] as const;

const uniqueElementIds = z
  .boolean()
  .default(true)
  .describe('true: UUID element ids; false: SHA-256 of the element text');

const unstructuredApiShape = {
  strategy: oneOf(UNSTRUCTURED_API_STRATEGIES, 'strategy').describe('required: "hi_res" (High Res) or "fast" (Fast)'),
  include_page_breaks: z.boolean().default(false),
  pdf_infer_table_structure: z.boolean().default(false).describe('High Res: PDF tables get metadata.text_as_html; no effect with Fast'),
  exclude_elements: z.array(oneOf(EXCLUDE_ELEMENT_TYPES, 'exclude_elements entry')).nullish().describe('element types to drop; default none'),
  xml_keep_tags: z.boolean().default(false).describe('false: only text is extracted from XML'),
  encoding: z.string().min(1).default('utf-8'),
  ocr_languages: z.array(z.string().min(1)).default(() => ['eng']),
  extract_image_block_types: z
    .array(oneOf(EXTRACT_IMAGE_BLOCK_TYPES, 'extract_image_block_types entry'))
    .nullish()
    .describe('element types whose image blocks are stored as Base64 in metadata; default none'),
  infer_table_structure: z.boolean().default(false).describe('PDF tables get metadata.text_as_html'),
  coordinates: z.boolean().default(false).describe('PDF elements get metadata.coordinates'),
  unique_element_ids: uniqueElementIds,
};

/**
 * Settings of the High Res (`strategy: "hi_res"`) and Fast (`strategy: "fast"`) partitioners,
 * `type: "partition", subtype: "unstructured_api"`.
 */
export const partitionUnstructuredApiSettings = strictSettings('partition/unstructured_api', unstructuredApiShape);
/** Parsed High Res/Fast partitioner settings (defaults applied). */
export type PartitionUnstructuredApiSettings = z.output<typeof partitionUnstructuredApiSettings>;
/** High Res/Fast partitioner settings as written. */
export type PartitionUnstructuredApiSettingsInput = z.input<typeof partitionUnstructuredApiSettings>;

const vlmProvider = z
  .enum([...PROVIDER_SPELLINGS, 'auto'], {
    error: (iss) => `provider must be one of "anthropic", "bedrock", "openai", "vertexai", "auto" (or provider_a..provider_d); got ${JSON.stringify(iss.input)}`,
  })
  .transform((v): Provider | 'auto' => (v === 'auto' ? 'auto' : (normalizeProvider(v) as Provider)));

const vlmShape = {
  provider: vlmProvider.default('anthropic').describe('anthropic | bedrock | openai | vertexai | auto (aliases provider_a..provider_d)'),
  provider_api_key: z.string().nullable().default(null).describe("null: the service's own key is used"),
  model: z
    .string()
    .min(1)
    .optional()
    .describe('provider-specific model id; default claude-sonnet-4-20250514 (anthropic/auto), us.anthropic.claude-sonnet-4-20250514-v1:0 (bedrock), gpt-4o (openai), gemini-2.0-flash-001 (vertexai)'),
  output_format: oneOf(VLM_OUTPUT_FORMATS, 'output_format').default('text/html'),
  format_html: z.boolean().default(true).describe('prettifies generated HTML'),
  unique_element_ids: uniqueElementIds,
  is_dynamic: z.boolean({ error: (iss) => (iss.input === undefined ? 'is_dynamic is required: true for Auto, false for VLM' : `is_dynamic must be a boolean; got ${JSON.stringify(iss.input)}`) }).describe('required: true for Auto (dynamic page routing), false for VLM'),
  allow_fast: z.boolean().optional().describe('allows routing pages to Fast; Auto: required and true; VLM: default true'),
};

/**
 * Settings of the Auto (`is_dynamic: true`) and VLM (`is_dynamic: false`) partitioners,
 * `type: "partition", subtype: "vlm"`. Provider aliases provider_a..provider_d become real names.
 */
export const partitionVlmSettings = strictSettings('partition/vlm', vlmShape)
  .superRefine(
    (raw, ctx) => {
      const v = asRecord(raw);
      if (v.is_dynamic === true && v.allow_fast !== true) {
        addCodedIssue(
          ctx,
          'partition.auto_requires_allow_fast',
          ['allow_fast'],
          v.allow_fast === undefined
            ? 'Auto partitioning (is_dynamic: true) requires allow_fast: true to be given explicitly'
            : 'Auto partitioning (is_dynamic: true) requires allow_fast: true; for VLM-only partitioning set is_dynamic: false',
        );
      }
      const provider = normalizeProvider(v.provider);
      if (provider && typeof v.model === 'string') {
        const mismatch = modelProviderMismatch(provider, v.model);
        if (mismatch) addCodedIssue(ctx, 'model.provider_mismatch', ['model'], mismatch);
      }
    },
    { when: () => true },
  )
  .transform((v) => ({ ...v, model: v.model ?? VLM_DEFAULT_MODELS[v.provider], allow_fast: v.allow_fast ?? true }));
/** Parsed Auto/VLM partitioner settings (defaults applied, provider normalized). */
export type PartitionVlmSettings = z.output<typeof partitionVlmSettings>;
/** Auto/VLM partitioner settings as written. */
export type PartitionVlmSettingsInput = z.input<typeof partitionVlmSettings>;

/** Setting names of each partition subtype. */
export const PARTITION_SETTING_KEYS = {
  unstructured_api: Object.keys(unstructuredApiShape),
  vlm: Object.keys(vlmShape),
} as const;
