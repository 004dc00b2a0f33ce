import type { Element, FormatDefinition, Logger } from '@quarry/core';
import type { PdfEngine } from './formats/pdf/engine.js';

export type { FormatDefinition };

/** Partitioning strategies (the Unstructured workflow API's `strategy`; `auto` and `vlm` come from the VLM node variants). */
export type PartitionStrategy = 'fast' | 'hi_res' | 'auto' | 'vlm' | 'ocr_only';

/** Options every format partitioner receives, already defaulted by the partition node. */
export interface FormatPartitionOptions {
  strategy: PartitionStrategy;
  /** Text encoding for text-like formats without a declared charset (default `utf-8`). */
  encoding: string;
  include_page_breaks: boolean;
  /** True when `infer_table_structure` or `pdf_infer_table_structure` asks for `text_as_html`. */
  infer_table_structure: boolean;
  xml_keep_tags: boolean;
  /** Tesseract language codes, e.g. `['eng']`, or `['auto']` to detect each page's script. */
  ocr_languages: string[];
  /** Element types whose image is stored as base64 in metadata. */
  extract_image_block_types: string[];
  /** Whether to emit `metadata.coordinates`. */
  coordinates: boolean;
  /** The engine reading PDF text layers (absent: `DEFAULT_PDF_ENGINE`). */
  pdf_engine?: PdfEngine;
  /** Only these pages (1-based) of a paged document, where the format can skip the others. */
  pages?: ReadonlySet<number>;
  /** The document's file name (basename), for messages and nested documents. */
  filename: string;
  /** The detected MIME type. */
  filetype: string;
  signal: AbortSignal;
  logger: Logger;
  /** Call before work of seconds (OCR, page rendering): a partition pool then frees its small lane for other documents. */
  onHeavyWork?: () => void;
  /**
   * How many attachments deep this document sits: 0 for the file itself, 1 for its attachments,
   * and so on (absent: 0). A format that partitions attachments leaves out those past
   * `QUARRY_MAX_EMBEDDING_DEPTH`, with a warning.
   */
  embeddingDepth?: number;
  /**
   * Partitions an embedded file (an email attachment, say) with the same options, detecting its
   * type; its elements carry `metadata.attached_to_filename`.
   */
  partitionEmbedded(bytes: Uint8Array, filename: string): Promise<Element[]>;
}

/**
 * Partitions one file format; the {@link FormatDefinition} that names it says which files. Returns
 * elements whose `element_id` is a temporary unique string (used only to link `metadata.parent_id`);
 * the partition node assigns final ids, and adds filename, filetype, languages (detected when the
 * partitioner did not set them), data_source and last_modified. Throw a `QuarryError` with code
 * `FILE_UNREADABLE` (or a more specific code) for a file that cannot be parsed.
 */
export interface FormatPartitioner {
  partition(bytes: Uint8Array, options: FormatPartitionOptions): Element[] | Promise<Element[]>;
}
