import { NodeParser, NodeRelationship, TextNode } from 'llamaindex';
import { chunkFlatDocuments, type ChunkSettingsOf } from '@quarry/nodes';
import { hiddenKeys } from './node-metadata.js';

/** Settings of {@link QuarryNodeParser}: those of the workflow's `chunk_by_title` node. */
export type QuarryNodeParserSettings = ChunkSettingsOf['chunk_by_title'];

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
    const chunks = await chunkFlatDocuments(
      documents.map((d) => ({ text: d.text, metadata: d.metadata, node: d })),
      this.settings,
    );
    return chunks.map((c) => {
      const metadata: Record<string, unknown> = { ...c.first.metadata, ...c.metadata };
      // LlamaIndex's page key follows the chunk's own page, not its first document's.
      if (typeof c.metadata.page_number === 'number') metadata.page_label = String(c.metadata.page_number);
      const hidden = hiddenKeys(metadata);
      return new TextNode({
        id_: c.id,
        text: c.text,
        metadata,
        excludedEmbedMetadataKeys: hidden,
        excludedLlmMetadataKeys: hidden,
        relationships: { [NodeRelationship.SOURCE]: c.first.node.asRelatedNodeInfo() },
      });
    });
  }
}
