import { defineNode, partitionUnstructuredApiSettings, type Flow, type FormatDefinition, type PartitionUnstructuredApiSettings, type ProcessContext, type SourceDocument } from '@quarry/core';
import { PARTITION_POOL_SERVICE } from '../pool/partition-pool.js';
import { partitionFile, type PartitionFileRequest } from './partition-file.js';

/** A partition request without the per-call signal and logger. */
export type PartitionRequest = Omit<PartitionFileRequest, 'signal' | 'logger'>;

/** The partition request of a document under these settings (what the node hands to `partitionFile`). */
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
    exclude_elements: settings.exclude_elements ?? [],
    unique_element_ids: settings.unique_element_ids,
  };
}

/**
 * The High Res and Fast partitioners (`type: "partition", subtype: "unstructured_api"`): reads the
 * document's bytes, detects its type and partitions it with the matching format partitioner. When
 * the run's services hold a {@link PARTITION_POOL_SERVICE} pool, partitioning runs in its child
 * processes (`quarry run --num-processes N`).
 */
export const unstructuredApiPartitionNode = defineNode<PartitionUnstructuredApiSettings>({
  type: 'partition',
  subtype: 'unstructured_api',
  description: 'Fast (text layer) and High Res (OCR, tables, images) partitioning of every supported file type',
  settings: partitionUnstructuredApiSettings,
  create: (settings, ctx) => {
    const pool = ctx.services.get(PARTITION_POOL_SERVICE);
    return {
      async process(flow: Flow, pctx: ProcessContext) {
        const { document } = flow;
        const bytes = await document.read(pctx.signal);
        const request = requestFor(document, settings, ctx.formats);
        if (pool) return pool.partition(bytes, request, { signal: pctx.signal, logger: pctx.logger });
        return partitionFile(bytes, { ...request, signal: pctx.signal, logger: pctx.logger });
      },
    };
  },
});
