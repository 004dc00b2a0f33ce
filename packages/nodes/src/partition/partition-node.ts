import { defineNode, partitionUnstructuredApiSettings, type Flow, type PartitionUnstructuredApiSettings, type ProcessContext } from '@quarry/core';
import { partitionFile } from './partition-file.js';

/**
 * The High Res and Fast partitioners (`type: "partition", subtype: "unstructured_api"`): reads the
 * document's bytes, detects its type and partitions it with the matching format partitioner.
 */
export const unstructuredApiPartitionNode = defineNode<PartitionUnstructuredApiSettings>({
  type: 'partition',
  subtype: 'unstructured_api',
  description: 'Fast (text layer) and High Res (OCR, tables, images) partitioning of every supported file type',
  settings: partitionUnstructuredApiSettings,
  create: (settings) => ({
    async process(flow: Flow, ctx: ProcessContext) {
      const { document } = flow;
      const bytes = await document.read(ctx.signal);
      return partitionFile(bytes, {
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
        signal: ctx.signal,
        logger: ctx.logger,
      });
    },
  }),
});
