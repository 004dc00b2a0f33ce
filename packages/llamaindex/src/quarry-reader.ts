import { Document, type BaseReader } from 'llamaindex';
import { flatElementMetadata } from '@quarry/core';
import { textElements, type ChunkStep, type DocumentElements, type DocumentsInput, type PartitionOptions } from '@quarry/nodes';
import { hiddenKeys } from './node-metadata.js';

/** Options of {@link QuarryReader}. */
export interface QuarryReaderOptions {
  /** Partition settings of the workflow's partition node (`strategy`, `ocr_languages`, ...), for paths. */
  partition?: PartitionOptions;
  /** Chunk each file's elements (a chunker and its settings), for paths; absent, elements are given as partitioned. */
  chunk?: ChunkStep;
  /**
   * Called with each document that failed (its `error` names the node, code and message); reading
   * goes on. Absent, the first failure throws a `QuarryError` with the document's code.
   */
  onFailure?: (failed: DocumentElements) => void;
}

/**
 * A LlamaIndex reader over quarry: every element (or chunk) with text of every document becomes a
 * `Document` whose text is the element's and whose metadata is the element's, flattened
 * (`element_id`, `type`, `filename`, `page_number`, `languages`, `text_as_html`, ...), plus
 * `source` (the path, or the workflow's record id). Only `filename` and `page_number` are shown to
 * the embedding model and the LLM.
 *
 * @example
 * ```ts
 * const documents = await new QuarryReader().loadData('report.pdf');
 * const chunks = await new QuarryReader({ chunk: { subtype: 'chunk_by_title' } }).loadData(['a.pdf', 'b.docx']);
 * const fromWorkflow = await new QuarryReader().loadData({ engine, plan, options: { source } });
 * ```
 */
export class QuarryReader implements BaseReader<Document> {
  constructor(private readonly options: QuarryReaderOptions = {}) {}

  /** Reads files (a path or paths, with this reader's settings) or a quarry workflow's output. */
  async loadData(input: string | readonly string[] | DocumentsInput): Promise<Document[]> {
    const out: Document[] = [];
    for await (const doc of this.lazyLoadData(input)) out.push(doc);
    return out;
  }

  /** The same documents one at a time, a source document's elements as soon as it is done. */
  async *lazyLoadData(input: string | readonly string[] | DocumentsInput): AsyncGenerator<Document> {
    const from: DocumentsInput = typeof input === 'string' || Array.isArray(input) ? { paths: input as string | readonly string[], ...this.fileSettings() } : (input as DocumentsInput);
    for await (const { element, source } of textElements(from, this.options.onFailure)) {
      const metadata = { ...flatElementMetadata(element), source };
      const hidden = hiddenKeys(metadata);
      yield new Document({ id_: element.element_id, text: element.text, metadata, excludedEmbedMetadataKeys: hidden, excludedLlmMetadataKeys: hidden });
    }
  }

  private fileSettings(): { partition?: PartitionOptions; chunk?: ChunkStep } {
    return { ...(this.options.partition ? { partition: this.options.partition } : {}), ...(this.options.chunk ? { chunk: this.options.chunk } : {}) };
  }
}
