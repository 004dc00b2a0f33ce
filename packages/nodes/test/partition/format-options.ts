import { silentLogger, type Element } from '@quarry/core';
import type { FormatPartitionOptions } from '../../src/partition/types.js';

/** Format-partitioner options as the partition node passes them, with overrides. */
export function formatOptions(overrides: Partial<FormatPartitionOptions> = {}): FormatPartitionOptions {
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

/** UTF-8 bytes of a string. */
export function utf8(s: string): Uint8Array {
  return new TextEncoder().encode(s);
}
