import type { TemplateNode, WorkflowTemplate } from '@quarry/core';

const CLAUDE = 'claude-sonnet-4-20250514';
const UPDATED = '2025-11-01T00:00:00.000Z';

const node = (id: string, name: string, type: TemplateNode['type'], subtype: string, settings: Record<string, unknown>): TemplateNode => ({
  id,
  name,
  type,
  subtype,
  settings,
});

const hiRes = (id: string): TemplateNode =>
  node(`${id}-partitioner`, 'Partitioner', 'partition', 'unstructured_api', {
    strategy: 'hi_res',
    pdf_infer_table_structure: true,
    infer_table_structure: true,
  });
const fast = (id: string): TemplateNode => node(`${id}-partitioner`, 'Partitioner', 'partition', 'unstructured_api', { strategy: 'fast' });
const byTitle = (id: string, max: number): TemplateNode =>
  node(`${id}-chunker`, 'Chunker', 'chunk', 'chunk_by_title', {
    max_characters: max,
    new_after_n_chars: Math.floor(max * 0.75),
    combine_text_under_n_chars: Math.min(500, max),
    overlap: 0,
  });

/**
 * The workflow templates of the built-in nodes, which `nodesPlugin` supplies. The first two are
 * the Unstructured Platform's template ids. Enrichment, VLM and embedding templates run only with
 * provider credentials.
 */
export const BUILTIN_TEMPLATES: readonly WorkflowTemplate[] = [
  {
    id: 'hi_res_partition',
    name: 'High Resolution Partition',
    description: 'High Res partitioning (layout detection and OCR for PDFs and images), tables as HTML.',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [hiRes('hi_res_partition')],
  },
  {
    id: 'hi_res_and_enrichment',
    name: 'High Resolution and Enrichment',
    description: 'High Res partitioning, then image descriptions, table descriptions and named entities by a provider_a (anthropic) model.',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      {
        ...hiRes('hi_res_and_enrichment'),
        settings: { strategy: 'hi_res', pdf_infer_table_structure: true, infer_table_structure: true, extract_image_block_types: ['Image', 'Table'] },
      },
      node('hi_res_and_enrichment-image', 'Image description', 'prompter', 'anthropic_image_description', { provider_type: 'anthropic', model: CLAUDE }),
      node('hi_res_and_enrichment-table', 'Table description', 'prompter', 'anthropic_table_description', { provider_type: 'anthropic', model: CLAUDE }),
      node('hi_res_and_enrichment-ner', 'Named entities', 'prompter', 'anthropic_ner', { provider_type: 'anthropic', model: CLAUDE }),
    ],
  },
  {
    id: 'fast_partition',
    name: 'Fast Partition',
    description: 'Fast partitioning: text extraction without layout models or OCR.',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [fast('fast_partition')],
  },
  {
    id: 'fast_and_chunk',
    name: 'Fast Partition and Chunk by Title',
    description: 'Fast partitioning, then sections chunked by title (at most 1500 characters, small sections combined).',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [fast('fast_and_chunk'), byTitle('fast_and_chunk', 1500)],
  },
  {
    id: 'hi_res_and_chunk',
    name: 'High Resolution Partition and Chunk by Title',
    description: 'High Res partitioning, then sections chunked by title (at most 1500 characters).',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [hiRes('hi_res_and_chunk'), byTitle('hi_res_and_chunk', 1500)],
  },
  {
    id: 'hi_res_chunk_and_embed',
    name: 'High Resolution, Chunk and Embed',
    description: 'High Res partitioning, chunks of at most 2048 characters, embedded with text-embedding-3-small (azure_openai).',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      hiRes('hi_res_chunk_and_embed'),
      byTitle('hi_res_chunk_and_embed', 2048),
      node('hi_res_chunk_and_embed-embedder', 'Embedder', 'embed', 'azure_openai', { model_name: 'text-embedding-3-small' }),
    ],
  },
  {
    id: 'auto_partition',
    name: 'Auto Partition',
    description: 'Auto partitioning: each page routed to Fast, High Res or a VLM (provider_a).',
    version: '1.0.0',
    last_updated: UPDATED,
    nodes: [
      node('auto_partition-partitioner', 'Partitioner', 'partition', 'vlm', { provider: 'anthropic', model: CLAUDE, is_dynamic: true, allow_fast: true }),
    ],
  },
];
