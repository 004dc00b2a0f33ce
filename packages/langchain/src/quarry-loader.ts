import { BaseDocumentLoader } from '@langchain/core/document_loaders/base';
import { Document } from '@langchain/core/documents';
import { flatElementMetadata } from '@quarry/core';
import { textElements, type DocumentElements, type DocumentsInput } from '@quarry/nodes';

/** Options of {@link QuarryLoader} beyond where the documents come from. */
export interface QuarryLoaderOptions {
  /**
   * Called with each document that failed (its `error` names the node, code and message); loading
   * goes on. Absent, the first failure throws a `QuarryError` with the document's code.
   */
  onFailure?: (failed: DocumentElements) => void;
}

/**
 * A LangChain document loader over quarry: every element (or chunk) of every document becomes a
 * `Document` whose `pageContent` is the element's text and whose metadata is the element's,
 * flattened (`element_id`, `type`, `filename`, `page_number`, `languages`, `text_as_html`, ...;
 * nested fields joined with `_`), plus `source` (the path, or the workflow's record id). Elements
 * without text (page breaks) are left out.
 *
 * The documents come from files (paths, with partition and chunk settings as in a workflow) or
 * from a quarry workflow streamed by its engine, which runs any nodes (OCR, enrichment, embedding).
 *
 * @example
 * ```ts
 * const docs = await new QuarryLoader('report.pdf').load();
 * const chunks = await new QuarryLoader({ paths: ['a.pdf', 'b.docx'], chunk: { subtype: 'chunk_by_title' } }).load();
 * for await (const doc of new QuarryLoader({ engine, plan, options: { source: { type: 'local', config: { path: 'docs' } } } }).lazyLoad()) index(doc);
 * ```
 */
export class QuarryLoader extends BaseDocumentLoader {
  private readonly input: DocumentsInput;

  constructor(
    input: string | readonly string[] | DocumentsInput,
    private readonly options: QuarryLoaderOptions = {},
  ) {
    super();
    this.input = typeof input === 'string' || isPathList(input) ? { paths: input } : input;
  }

  /** Every document's elements as LangChain documents. */
  async load(): Promise<Document[]> {
    const out: Document[] = [];
    for await (const doc of this.lazyLoad()) out.push(doc);
    return out;
  }

  /** The same documents one at a time, a source document's elements as soon as it is done. */
  async *lazyLoad(): AsyncGenerator<Document> {
    for await (const { element, source } of textElements(this.input, this.options.onFailure)) {
      yield new Document({ id: element.element_id, pageContent: element.text, metadata: { ...flatElementMetadata(element), source } });
    }
  }
}

function isPathList(v: readonly string[] | DocumentsInput): v is readonly string[] {
  return Array.isArray(v);
}
