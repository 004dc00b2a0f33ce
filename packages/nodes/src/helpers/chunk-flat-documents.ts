import { ELEMENT_TYPES, flatElementMetadata, type Element, type ElementMetadata, type ElementType, type FlatMetadataValue } from '@quarry/core';
import { chunk, type ChunkSettingsOf } from './chunk.js';
import { partition } from './partition.js';

/** A framework's document (LangChain, LlamaIndex) as the chunker sees it: a text and flat metadata. */
export interface FlatDocument {
  text: string;
  metadata: Record<string, unknown>;
}

/** One chunk of {@link chunkFlatDocuments}: its text and flat metadata, and the first document it came from. */
export interface FlatChunk<D> {
  id: string;
  text: string;
  /** The chunk's own metadata ({@link flatElementMetadata}). */
  metadata: Record<string, FlatMetadataValue>;
  first: D;
}

/** Element metadata fields a flat document carries back to the chunker (those chunking reads or keeps). */
const ELEMENT_FIELDS = [
  'filename',
  'file_directory',
  'filetype',
  'last_modified',
  'page_number',
  'page_name',
  'languages',
  'parent_id',
  'category_depth',
  'text_as_html',
  'table_id',
  'url',
] as const;
const TYPES = new Set<string>(ELEMENT_TYPES);

/**
 * Chunks a framework's documents by title. Documents whose metadata came from
 * {@link flatElementMetadata} (an `element_id` and an element `type`) are elements: consecutive ones
 * with the same `metadata.source` are chunked together, keeping their types and page numbers. Any
 * other document is one text, partitioned as plain text first; its chunks carry no file name.
 *
 * @example
 * ```ts
 * const chunks = await chunkFlatDocuments(docs.map((d) => ({ text: d.pageContent, metadata: d.metadata })), { max_characters: 1000 });
 * ```
 */
export async function chunkFlatDocuments<D extends FlatDocument>(
  documents: readonly D[],
  settings: ChunkSettingsOf['chunk_by_title'],
): Promise<Array<FlatChunk<D>>> {
  const out: Array<FlatChunk<D>> = [];
  for (const group of groups(documents)) {
    const first = group.documents[0]!;
    const elements = group.fromElements ? group.documents.map(toElement) : await partitionText(first.text);
    for (const c of await chunk(elements, 'chunk_by_title', settings)) {
      const metadata = flatElementMetadata(c);
      // A plain text was partitioned under a made-up file name: that name is not the document's.
      if (!group.fromElements) for (const key of ['filename', 'filetype']) delete metadata[key];
      out.push({ id: c.element_id, text: c.text, metadata, first });
    }
  }
  return out;
}

interface Group<D> {
  fromElements: boolean;
  documents: D[];
}

function groups<D extends FlatDocument>(documents: readonly D[]): Array<Group<D>> {
  const out: Array<Group<D>> = [];
  for (const d of documents) {
    const fromElements = typeof d.metadata.element_id === 'string' && typeof d.metadata.type === 'string' && TYPES.has(d.metadata.type);
    const last = out.at(-1);
    if (fromElements && last?.fromElements && last.documents[0]!.metadata.source === d.metadata.source) last.documents.push(d);
    else out.push({ fromElements, documents: [d] });
  }
  return out;
}

function toElement(d: FlatDocument): Element {
  const metadata: Record<string, unknown> = {};
  for (const key of ELEMENT_FIELDS) if (d.metadata[key] !== undefined) metadata[key] = d.metadata[key];
  return { element_id: d.metadata.element_id as string, type: d.metadata.type as ElementType, text: d.text, metadata: metadata as ElementMetadata };
}

function partitionText(text: string): Promise<Element[]> {
  return text.trim() === '' ? Promise.resolve([]) : partition(new TextEncoder().encode(text), { filename: 'text.txt', filetype: 'text/plain' });
}
