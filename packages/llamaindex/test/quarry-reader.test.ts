import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectorsPlugin } from '@quarry/connectors';
import { createEngine, isQuarryError } from '@quarry/core';
import { nodesPlugin, partition, type DocumentElements } from '@quarry/nodes';
import { Document, MetadataMode } from 'llamaindex';
import { afterAll, describe, expect, it } from 'vitest';
import { QuarryReader } from '../src/index.js';

const docsDir = fileURLToPath(new URL('../../../examples/docs', import.meta.url));
const guide = join(docsDir, 'field-guide.md');
let tmp: string | undefined;
afterAll(async () => tmp && rm(tmp, { recursive: true, force: true }));

describe('QuarryReader', () => {
  it('reads a file as one LlamaIndex Document per element, with the element metadata flattened', async () => {
    const docs = await new QuarryReader().loadData(guide);
    const elements = (await partition(guide)).filter((e) => e.text.trim() !== '');
    expect(docs).toHaveLength(elements.length);
    expect(docs[0]).toBeInstanceOf(Document);
    expect(docs[0]!.text).toBe('Quarry Field Guide');
    expect(docs[0]!.id_).toBe(docs[0]!.metadata.element_id);
    expect(docs[0]!.metadata).toMatchObject({ type: 'Title', filename: 'field-guide.md', filetype: 'text/markdown', source: guide });
    expect(docs.map((d) => d.metadata.type)).toEqual(elements.map((e) => e.type));
  });

  it('shows only the file name and page to the embedding model and the LLM', async () => {
    const [doc] = await new QuarryReader().loadData(guide);
    const embedded = doc!.getContent(MetadataMode.EMBED);
    expect(embedded).toContain('filename: field-guide.md');
    expect(embedded).toContain('Quarry Field Guide');
    expect(embedded).not.toContain(doc!.id_);
    expect(embedded).not.toContain('text/markdown');
    expect(doc!.getContent(MetadataMode.LLM)).toBe(embedded);
  });

  it('reads several files chunked with the reader\'s settings', async () => {
    const docs = await new QuarryReader({ partition: { strategy: 'fast' }, chunk: { subtype: 'chunk_by_character', settings: { max_characters: 150 } } }).loadData([guide, join(docsDir, 'team-update.eml')]);
    expect(new Set(docs.map((d) => d.metadata.source))).toEqual(new Set([guide, join(docsDir, 'team-update.eml')]));
    expect(docs.every((d) => d.text.length <= 150 && ['CompositeElement', 'Table', 'TableChunk'].includes(d.metadata.type as string))).toBe(true);
  });

  it('throws the failing document\'s code by default, or reports it to onFailure and goes on', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'quarry-li-'));
    const bad = join(tmp, 'bad.pdf');
    await writeFile(bad, '%PDF-1.7 this is not a PDF');
    const err = await new QuarryReader().loadData([bad, guide]).catch((e: unknown) => e);
    expect(isQuarryError(err)).toBe(true);
    expect((err as Error).message).toContain('bad.pdf');
    const failed: DocumentElements[] = [];
    const docs = await new QuarryReader({ onFailure: (d) => failed.push(d) }).loadData([bad, guide]);
    expect(failed.map((f) => [f.source, f.error?.node])).toEqual([[bad, 'partition']]);
    expect(failed[0]!.error?.code).toBe((err as { code: string }).code);
    expect(docs.length).toBeGreaterThan(5);
  });

  it('reads the output of a quarry workflow, by record id', async () => {
    const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
    const plan = engine.build({ name: 'li', nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] });
    const docs = await new QuarryReader().loadData({ engine, plan, options: { source: { type: 'local', config: { path: docsDir, include: ['*.md', '*.csv'] } } } });
    expect(new Set(docs.map((d) => d.metadata.source))).toEqual(new Set(['field-guide.md', 'reading-list.csv']));
    expect(docs.find((d) => d.metadata.source === 'reading-list.csv')!.metadata.type).toBe('Table');
  });
});
