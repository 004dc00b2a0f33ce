import { BaseDocumentTransformer, Document, type DocumentInterface } from '@langchain/core/documents';
import { ELEMENT_TYPES, flatElementMetadata, type Element, type ElementMetadata, type ElementType } from '@quarry/core';
import { chunk, partition, type ChunkSettingsOf } from '@quarry/nodes';

/** Settings of {@link QuarryTextSplitter}: those of the workflow's `chunk_by_title` node. */
export type QuarryTextSplitterSettings = ChunkSettingsOf['chunk_by_title'];

/** Element metadata fields a LangChain document from {@link QuarryLoader} carries back to the chunker. */
const ELEMENT_FIELDS = ['filename', 'file_directory', 'filetype', 'last_modified', 'page_number', 'page_name', 'languages', 'parent_id', 'category_depth', 'text_as_html', 'table_id', 'url'] as const;

/**
 * A LangChain document transformer that chunks by title (the `chunk_by_title` strategy of the
 * Python library `unstructured`): sections start at titles, small sections are combined, no chunk
 * is longer than `max_characters`, and a table is never mixed with text.
 *
 * Documents from {@link QuarryLoader} are elements: consecutive ones of the same `source` are
 * chunked together, keeping their types (titles, tables) and page numbers. Any other document is
 * one text, partitioned as plain text first (paragraphs; short capitalized lines are titles). Each
 * chunk keeps the first input document's metadata, overlaid with the chunk's own (`element_id`,
 * `type`, `page_number`, ...).
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
    const out: Document[] = [];
    for (const group of groups(documents)) {
      const elements = group.fromQuarry ? group.documents.map(toElement) : await partitionText(group.documents[0]!.pageContent);
      const base = group.documents[0]!.metadata;
      for (const c of await chunk(elements, 'chunk_by_title', this.settings)) {
        const own = flatElementMetadata(c);
        // A plain text was partitioned under a made-up file name: that name is not the document's.
        if (!group.fromQuarry) for (const key of ['filename', 'filetype']) delete own[key];
        out.push(new Document({ id: c.element_id, pageContent: c.text, metadata: { ...base, ...own } }));
      }
    }
    return out;
  }

  /** The same as {@link transformDocuments}, under the name LangChain's text splitters use. */
  splitDocuments(documents: DocumentInterface[]): Promise<Document[]> {
    return this.transformDocuments(documents);
  }

  /** Chunks one plain text; returns the chunks' texts. */
  async splitText(text: string): Promise<string[]> {
    return (await chunk(await partitionText(text), 'chunk_by_title', this.settings)).map((c) => c.text);
  }

  /** Chunks texts into documents, each chunk with its text's metadata (`metadatas[i]`). */
  createDocuments(texts: string[], metadatas: Array<Record<string, unknown>> = []): Promise<Document[]> {
    return this.transformDocuments(texts.map((pageContent, i) => new Document({ pageContent, metadata: { ...metadatas[i] } })));
  }
}

interface Group {
  fromQuarry: boolean;
  documents: DocumentInterface[];
}

/** Consecutive element documents of one source form a group; any other document is a group alone. */
function groups(documents: DocumentInterface[]): Group[] {
  const out: Group[] = [];
  for (const d of documents) {
    const fromQuarry = isElementDocument(d);
    const last = out.at(-1);
    if (fromQuarry && last?.fromQuarry && last.documents[0]!.metadata.source === d.metadata.source) last.documents.push(d);
    else out.push({ fromQuarry, documents: [d] });
  }
  return out;
}

const TYPES = new Set<string>(ELEMENT_TYPES);

function isElementDocument(d: DocumentInterface): boolean {
  return typeof d.metadata.element_id === 'string' && typeof d.metadata.type === 'string' && TYPES.has(d.metadata.type);
}

function toElement(d: DocumentInterface): Element {
  const metadata: Record<string, unknown> = {};
  for (const key of ELEMENT_FIELDS) if (d.metadata[key] !== undefined) metadata[key] = d.metadata[key];
  return { element_id: d.metadata.element_id as string, type: d.metadata.type as ElementType, text: d.pageContent, metadata: metadata as ElementMetadata };
}

function partitionText(text: string): Promise<Element[]> {
  return text.trim() === '' ? Promise.resolve([]) : partition(new TextEncoder().encode(text), { filename: 'text.txt', filetype: 'text/plain' });
}
