import { defineNode, lazySchema, oneOf, strictSettings, zod, type Flow, type FormatDefinition, type ProcessContext, type SourceDocument } from '@quarry/core';
import { ELEMENT_TYPE_VOCABULARY } from '@quarry/core/element';
import type { z } from 'zod';
import { handOnPooledChunks } from '../chunk/pool-handoff.js';
import { chunkingAfter } from '../chunk/pooled-chunkers.js';
import { PARTITION_POOL_SERVICE } from '../pool/partition-pool.js';
import { PDF_ENGINES } from './formats/pdf/engine.js';
import { partitionFile, type PartitionFileRequest } from './partition-file.js';
import { uniqueElementIds } from './unique-element-ids.js';

/** Element types a High Res/Fast partitioner may drop (`exclude_elements`). */
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

/** Element types whose image blocks may be stored as Base64 (`extract_image_block_types`). */
export const EXTRACT_IMAGE_BLOCK_TYPES = ELEMENT_TYPE_VOCABULARY;

/** Partitioning strategies of the `unstructured_api` subtype: High Res and Fast. */
export const UNSTRUCTURED_API_STRATEGIES = ['fast', 'hi_res'] as const;

/** The defaults of the High Res/Fast partitioner's settings (each call gets its own copy). */
export function partitionSettingsDefaults(strategy: (typeof UNSTRUCTURED_API_STRATEGIES)[number]) {
  return {
    strategy,
    include_page_breaks: false,
    pdf_infer_table_structure: false,
    xml_keep_tags: false,
    encoding: 'utf-8',
    ocr_languages: ['eng'],
    infer_table_structure: false,
    coordinates: false,
    unique_element_ids: true,
  };
}

/**
 * Settings of the High Res (`strategy: "hi_res"`) and Fast (`strategy: "fast"`) partitioners,
 * `type: "partition", subtype: "unstructured_api"`. Built on first use (zod loads with it).
 */
export const partitionUnstructuredApiSettings = lazySchema(() => {
  const z = zod();
  const defaults = partitionSettingsDefaults('fast');
  const unstructuredApiShape = {
    strategy: oneOf(UNSTRUCTURED_API_STRATEGIES, 'strategy').describe('required: "hi_res" (High Res) or "fast" (Fast)'),
    include_page_breaks: z.boolean().default(defaults.include_page_breaks),
    pdf_infer_table_structure: z
      .boolean()
      .default(defaults.pdf_infer_table_structure)
      .describe('High Res: PDF tables get metadata.text_as_html; no effect with Fast'),
    exclude_elements: z.array(oneOf(EXCLUDE_ELEMENT_TYPES, 'exclude_elements entry')).nullish().describe('element types to drop; default none'),
    xml_keep_tags: z.boolean().default(defaults.xml_keep_tags).describe('false: only text is extracted from XML'),
    encoding: z.string().min(1).default(defaults.encoding),
    ocr_languages: z.array(z.string().min(1)).default(() => [...defaults.ocr_languages]),
    extract_image_block_types: z
      .array(oneOf(EXTRACT_IMAGE_BLOCK_TYPES, 'extract_image_block_types entry'))
      .nullish()
      .describe('element types whose image blocks are stored as Base64 in metadata; default none'),
    infer_table_structure: z.boolean().default(defaults.infer_table_structure).describe('PDF tables get metadata.text_as_html'),
    coordinates: z.boolean().default(defaults.coordinates).describe('PDF elements get metadata.coordinates'),
    pdf_engine: oneOf(PDF_ENGINES, 'pdf_engine').optional().describe('Fast: "pdfium" (default) or "pdfjs" reads PDF text layers'),
    unique_element_ids: uniqueElementIds(),
  };
  return strictSettings('partition/unstructured_api', unstructuredApiShape);
});
/** Parsed High Res/Fast partitioner settings (defaults applied). */
export type PartitionUnstructuredApiSettings = z.output<ReturnType<typeof partitionUnstructuredApiSettings>>;
/** High Res/Fast partitioner settings as written. */
export type PartitionUnstructuredApiSettingsInput = z.input<ReturnType<typeof partitionUnstructuredApiSettings>>;

/** What the partition node sends to `partitionFile` for one document (the call's signal and logger aside). */
export type PartitionRequest = Omit<PartitionFileRequest, 'signal' | 'logger' | 'onHeavyWork'>;

/** The request the partition node makes for a document with these settings. */
export function requestFor(document: SourceDocument, settings: PartitionUnstructuredApiSettings, formats: readonly FormatDefinition[]): PartitionRequest {
  return {
    formats,
    filename: document.filename,
    ...(document.file_directory ? { file_directory: document.file_directory } : {}),
    ...(document.filetype ? { filetype: document.filetype } : {}),
    ...(document.last_modified ? { last_modified: document.last_modified } : {}),
    data_source: document.data_source,
    strategy: settings.strategy,
    encoding: settings.encoding,
    include_page_breaks: settings.include_page_breaks,
    infer_table_structure: settings.infer_table_structure,
    pdf_infer_table_structure: settings.pdf_infer_table_structure,
    xml_keep_tags: settings.xml_keep_tags,
    ocr_languages: settings.ocr_languages,
    extract_image_block_types: settings.extract_image_block_types ?? [],
    coordinates: settings.coordinates,
    ...(settings.pdf_engine ? { pdf_engine: settings.pdf_engine } : {}),
    exclude_elements: settings.exclude_elements ?? [],
    unique_element_ids: settings.unique_element_ids,
  };
}

/**
 * The High Res and Fast partitioners (`type: "partition", subtype: "unstructured_api"`): reads the
 * document's bytes, detects its type and partitions it with the matching format partitioner. When
 * the run's services hold a {@link PARTITION_POOL_SERVICE} pool, partitioning runs in its child
 * processes (`quarry run --num-processes N`), and so does the work of a chunker right after it
 * (`chunk_by_title`, `chunk_by_character`, `chunk_by_page`, without contextual chunking): only the
 * chunks come back, and that chunker hands them on as they are.
 */
export const unstructuredApiPartitionNode = defineNode<PartitionUnstructuredApiSettings>({
  type: 'partition',
  subtype: 'unstructured_api',
  description: 'Fast (text layer) and High Res (OCR, tables, images) partitioning of every supported file type',
  get settings() {
    return partitionUnstructuredApiSettings();
  },
  create: (settings, ctx) => {
    const pool = ctx.services.get(PARTITION_POOL_SERVICE);
    const chunking = pool ? chunkingAfter(ctx) : undefined;
    return {
      async process(flow: Flow, pctx: ProcessContext) {
        const { document } = flow;
        const request = requestFor(document, settings, ctx.formats);
        if (!pool) return partitionFile(await document.read(pctx.signal), { ...request, signal: pctx.signal, logger: pctx.logger });
        // A local file is read by the partition process: its bytes never cross this process's event loop.
        const input = document.localPath === undefined ? await document.read(pctx.signal) : { path: document.localPath };
        const options = { signal: pctx.signal, logger: pctx.logger };
        if (chunking) return handOnPooledChunks(await pool.partitionAndChunk(input, request, chunking, options), chunking);
        return pool.partition(input, request, options);
      },
    };
  },
});
