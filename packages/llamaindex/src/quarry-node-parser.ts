import { NodeParser, NodeRelationship, TextNode } from 'llamaindex';
import { ELEMENT_TYPES, flatElementMetadata, type Element, type ElementMetadata, type ElementType } from '@quarry/core';
import { chunk, partition, type ChunkSettingsOf } from '@quarry/nodes';
import { hiddenKeys } from './node-metadata.js';

/** Settings of {@link QuarryNodeParser}: those of the workflow's `chunk_by_title` node. */
export type QuarryNodeParserSettings = ChunkSettingsOf['chunk_by_title'];

/** Element metadata fields a document from {@link QuarryReader} carries back to the chunker. */
const ELEMENT_FIELDS = ['filename', 'file_directory', 'filetype', 'last_modified', 'page_number', 'page_name', 'languages', 'parent_id', 'category_depth', 'text_as_html', 'table_id', 'url'] as const;
const TYPES = new Set<string>(ELEMENT_TYPES);

/**
 * A LlamaIndex node parser that chunks by title (the `chunk_by_title` strategy of the Python
 * library `unstructured`): sections start at titles, small sections are combined, no chunk is
 * longer than `max_characters`, and a table is never mixed with text. Use it as a transformation
 * (`getNodesFromDocuments`, ingestion pipelines).
 *
 * Documents from {@link QuarryReader} are elements: consecutive ones of the same `source` are
 * chunked together, keeping their types and page numbers. Any other document is one text,
 * partitioned as plain text first. Each node keeps the first input document's metadata overlaid
 * with the chunk's own (`element_id`, `type`, `page_number`, ...), links to that document as its
 * source, and to its neighbours.
 *
 * @example
 * ```ts
 * const nodes = await new QuarryNodeParser({ max_characters: 1000 }).getNodesFromDocuments(await new QuarryReader().loadData('report.pdf'));
 * ```
 */
export class QuarryNodeParser extends NodeParser<Promise<TextNode[]>> {
  constructor(private readonly settings: QuarryNodeParserSettings = {}) {
    super();
    // The chunk's own metadata must win over its first document's, which NodeParser would copy over it.
    this.includeMetadata = false;
  }

  protected override async parseNodes(documents: TextNode[]): Promise<TextNode[]> {
    const out: TextNode[] = [];
    for (const group of groups(documents)) {
      const first = group.documents[0]!;
      const elements = group.fromQuarry ? group.documents.map(toElement) : await partitionText(first.text);
      for (const c of await chunk(elements, 'chunk_by_title', this.settings)) {
        const own = flatElementMetadata(c);
        // A plain text was partitioned under a made-up file name: that name is not the document's.
        if (!group.fromQuarry) for (const key of ['filename', 'filetype']) delete own[key];
        const metadata = { ...first.metadata, ...own };
        const hidden = hiddenKeys(metadata);
        out.push(
          new TextNode({ id_: c.element_id, text: c.text, metadata, excludedEmbedMetadataKeys: hidden, excludedLlmMetadataKeys: hidden, relationships: { [NodeRelationship.SOURCE]: first.asRelatedNodeInfo() } }),
        );
      }
    }
    return out;
  }
}

interface Group {
  fromQuarry: boolean;
  documents: TextNode[];
}

/** Consecutive element documents of one source form a group; any other document is a group alone. */
function groups(documents: TextNode[]): Group[] {
  const out: Group[] = [];
  for (const d of documents) {
    const fromQuarry = typeof d.metadata.element_id === 'string' && typeof d.metadata.type === 'string' && TYPES.has(d.metadata.type);
    const last = out.at(-1);
    if (fromQuarry && last?.fromQuarry && last.documents[0]!.metadata.source === d.metadata.source) last.documents.push(d);
    else out.push({ fromQuarry, documents: [d] });
  }
  return out;
}

function toElement(d: TextNode): Element {
  const metadata: Record<string, unknown> = {};
  for (const key of ELEMENT_FIELDS) if (d.metadata[key] !== undefined) metadata[key] = d.metadata[key];
  return { element_id: d.metadata.element_id as string, type: d.metadata.type as ElementType, text: d.text, metadata: metadata as ElementMetadata };
}

function partitionText(text: string): Promise<Element[]> {
  return text.trim() === '' ? Promise.resolve([]) : partition(new TextEncoder().encode(text), { filename: 'text.txt', filetype: 'text/plain' });
}
