import { BaseDocumentTransformer, Document, type DocumentInterface } from '@langchain/core/documents';
import { chunkFlatDocuments, type ChunkSettingsOf } from '@quarry/nodes';

/** Settings of {@link QuarryTextSplitter}: those of the workflow's `chunk_by_title` node. */
export type QuarryTextSplitterSettings = ChunkSettingsOf['chunk_by_title'];

/**
 * A LangChain document transformer that chunks by title (the `chunk_by_title` strategy of the
 * Python library `unstructured`): sections start at titles, small sections are combined, no chunk
 * is longer than `max_characters`, and a table is never mixed with text.
 *
 * Documents from {@link QuarryLoader} are elements: consecutive ones of the same `source` are
 * chunked together, keeping their types (titles, tables) and page numbers. Any other document is
 * one text, partitioned as plain text first (paragraphs; short heading-like lines are titles). Each
 * chunk keeps the first input document's metadata, overlaid with the chunk's own (`element_id`,
 * `type`, `page_number`, ...; `loc.pageNumber` is the chunk's page).
 *
 * @example
 * ```ts
 * const chunks = await new QuarryTextSplitter({ max_characters: 1000 }).splitDocuments(await new QuarryLoader('report.pdf').load());
 * ```
 */
export class QuarryTextSplitter extends BaseDocumentTransformer {
  override lc_namespace = ['quarry', 'text_splitters'];

  constructor(private readonly settings: QuarryTextSplitterSettings = {}) {
    super();
  }

  /** Chunks documents (see the class). */
  async transformDocuments(documents: DocumentInterface[]): Promise<Document[]> {
    const chunks = await chunkFlatDocuments(
      documents.map((d) => ({ text: d.pageContent, metadata: d.metadata })),
      this.settings,
    );
    return chunks.map((c) => {
      const metadata: Record<string, unknown> = { ...c.first.metadata, ...c.metadata };
      // LangChain's page key follows the chunk's own page, not its first document's.
      if (typeof c.metadata.page_number === 'number') metadata.loc = { pageNumber: c.metadata.page_number };
      return new Document({ id: c.id, pageContent: c.text, metadata });
    });
  }

  /** The same as {@link transformDocuments}, under the name LangChain's text splitters use. */
  splitDocuments(documents: DocumentInterface[]): Promise<Document[]> {
    return this.transformDocuments(documents);
  }

  /** Chunks one plain text; returns the chunks' texts. */
  async splitText(text: string): Promise<string[]> {
    return (await chunkFlatDocuments([{ text, metadata: {} }], this.settings)).map((c) => c.text);
  }

  /** Chunks texts into documents, each chunk with its text's metadata (`metadatas[i]`). */
  createDocuments(texts: string[], metadatas: Array<Record<string, unknown>> = []): Promise<Document[]> {
    return this.transformDocuments(texts.map((pageContent, i) => new Document({ pageContent, metadata: { ...metadatas[i] } })));
  }
}
