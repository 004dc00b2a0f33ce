import { silentLogger, type Element } from '@quarry/core';
import type { FormatPartitionOptions } from '../partition/types.js';

/**
 * The options a format partitioner receives from the partition node with its default settings
 * (strategy `auto`, a text file named `doc`), with overrides: for calling a partitioner directly in a test.
 */
export function formatPartitionOptions(overrides: Partial<FormatPartitionOptions> = {}): FormatPartitionOptions {
  return {
    strategy: 'auto',
    encoding: 'utf-8',
    include_page_breaks: false,
    infer_table_structure: false,
    xml_keep_tags: false,
    ocr_languages: ['eng'],
    extract_image_block_types: [],
    coordinates: false,
    filename: 'doc',
    filetype: 'text/plain',
    signal: new AbortController().signal,
    logger: silentLogger,
    partitionEmbedded: async (): Promise<Element[]> => [],
    ...overrides,
  };
}
