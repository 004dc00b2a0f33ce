import { fileURLToPath } from 'node:url';
import { chunk, partition } from '@quarry/nodes';
import { Document, IngestionPipeline, NodeRelationship, type RelatedNodeInfo } from 'llamaindex';
import { describe, expect, it } from 'vitest';
import { QuarryNodeParser, QuarryReader } from '../src/index.js';

const guide = fileURLToPath(new URL('../../../examples/docs/field-guide.md', import.meta.url));
const html = fileURLToPath(new URL('../../../examples/docs/quarterly-notes.html', import.meta.url));

describe('QuarryNodeParser', () => {
  it("chunks read elements by title, as the chunk_by_title node does, keeping each chunk's metadata", async () => {
    const documents = await new QuarryReader({ mode: 'elements' }).loadData(guide);
    const nodes = await new QuarryNodeParser({ max_characters: 200 }).getNodesFromDocuments(documents);
    const expected = await chunk(
      (await partition(guide)).filter((e) => e.text.trim() !== ''),
      'chunk_by_title',
      { max_characters: 200 },
    );
    expect(nodes.map((n) => n.text)).toEqual(expected.map((c) => c.text));
    expect(nodes.map((n) => n.metadata.type)).toEqual(expected.map((c) => c.type));
    expect(nodes[0]!.metadata).toMatchObject({ filename: 'field-guide.md', source: guide });
    expect(nodes.every((n) => n.id_ === n.metadata.element_id)).toBe(true);
  });

  it('links each node to its source document and its neighbours', async () => {
    const documents = await new QuarryReader({ mode: 'elements' }).loadData(guide);
    const nodes = await new QuarryNodeParser({ max_characters: 200 }).getNodesFromDocuments(documents);
    expect((nodes[0]!.relationships[NodeRelationship.SOURCE] as RelatedNodeInfo).nodeId).toBe(documents[0]!.id_);
    expect((nodes[1]!.relationships[NodeRelationship.PREVIOUS] as RelatedNodeInfo).nodeId).toBe(nodes[0]!.id_);
    expect((nodes[0]!.relationships[NodeRelationship.NEXT] as RelatedNodeInfo).nodeId).toBe(nodes[1]!.id_);
  });

  it('runs in an ingestion pipeline, each source chunked apart', async () => {
    const documents = [...(await new QuarryReader({ mode: 'elements' }).loadData(guide)), ...(await new QuarryReader({ mode: 'elements' }).loadData(html))];
    const nodes = await new IngestionPipeline({ transformations: [new QuarryNodeParser({ max_characters: 10_000 })] }).run({ documents });
    // With room for everything, only sections and tables part chunks: the two files are never joined.
    const sources = nodes.map((n) => n.metadata.source);
    expect(sources.filter((s, i) => sources.indexOf(s) === i)).toEqual([guide, html]);
    expect(nodes.filter((n) => n.metadata.type === 'CompositeElement').map((n) => n.metadata.source)).toEqual([guide, html, html]);
  });

  it('splits documents not made by quarry as plain text, keeping their metadata', async () => {
    const text =
      'Introduction\n\nThe first paragraph is about granite and how it is cut.\n\nMethods\n\nThe second paragraph is about the saws that cut it, in long detail.';
    const nodes = await new QuarryNodeParser({ max_characters: 80, combine_text_under_n_chars: 0 }).getNodesFromDocuments([
      new Document({ text, metadata: { author: 'ada' } }),
    ]);
    expect(nodes.length).toBeGreaterThan(1);
    expect(nodes.every((n) => n.text.length <= 80 && n.metadata.author === 'ada' && n.metadata.filename === undefined)).toBe(true);
    expect(nodes.map((n) => n.text).join(' ')).toContain('granite');
  });

  it('fails wrong settings with SETTINGS_INVALID', async () => {
    await expect(new QuarryNodeParser({ max_characters: 10, overlap: 50 }).getNodesFromDocuments([new Document({ text: 'some text' })])).rejects.toMatchObject({
      code: 'SETTINGS_INVALID',
    });
  });
});
