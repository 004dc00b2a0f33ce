import { existsSync } from 'node:fs';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from '@langchain/core/documents';
import { connectorsPlugin } from '@quarry/connectors';
import { createEngine, isQuarryError } from '@quarry/core';
import { nodesPlugin, partition, type DocumentElements } from '@quarry/nodes';
import { afterAll, describe, expect, it } from 'vitest';
import { QuarryLoader } from '../src/index.js';

const docsDir = fileURLToPath(new URL('../../../examples/docs', import.meta.url));
const guide = join(docsDir, 'field-guide.md');
const corpusPdf = fileURLToPath(new URL('../../../../shared/corpus/docs/multi-column-2p.pdf', import.meta.url));
let tmp: string | undefined;
afterAll(async () => tmp && rm(tmp, { recursive: true, force: true }));

describe('QuarryLoader', () => {
  it('loads a file as one LangChain Document per element, with the element metadata flattened', async () => {
    const docs = await new QuarryLoader(guide).load();
    const elements = (await partition(guide)).filter((e) => e.text.trim() !== '');
    expect(docs).toHaveLength(elements.length);
    expect(docs[0]).toBeInstanceOf(Document);
    expect(docs[0]!.pageContent).toBe('Quarry Field Guide');
    expect(docs[0]!.metadata).toMatchObject({ type: 'Title', filename: 'field-guide.md', file_directory: docsDir, filetype: 'text/markdown', source: guide });
    expect(docs[0]!.id).toBe(docs[0]!.metadata.element_id);
    expect(docs.map((d) => d.metadata.type)).toEqual(elements.map((e) => e.type));
    // Nested and object-list metadata is flat: scalars and lists of scalars only.
    for (const d of docs) for (const v of Object.values(d.metadata)) expect(['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x !== 'object'))).toBe(true);
  });

  it.skipIf(!existsSync(corpusPdf))('keeps page numbers of a paged document (corpus: multi-column-2p.pdf)', async () => {
    const docs = await new QuarryLoader(corpusPdf, {}).load();
    expect(new Set(docs.map((d) => d.metadata.page_number))).toEqual(new Set([1, 2]));
  });

  it('loads several files chunked, lazily: leaving the loop early partitions no further file', async () => {
    const loader = new QuarryLoader({ paths: [guide, join(docsDir, 'quarterly-notes.html'), join(docsDir, 'no-such-file.pdf')], chunk: { subtype: 'chunk_by_title', settings: { max_characters: 300 } } });
    const seen = new Set<string>();
    for await (const doc of loader.lazyLoad()) {
      expect(doc.metadata.type).toMatch(/^(CompositeElement|Table|TableChunk)$/);
      expect(doc.pageContent.length).toBeLessThanOrEqual(300);
      seen.add(doc.metadata.source as string);
      if (seen.size === 2) break;
    }
    // The missing third file was never reached, so nothing threw.
    expect([...seen]).toEqual([guide, join(docsDir, 'quarterly-notes.html')]);
  });

  it('throws the failing document\'s code by default, or reports it to onFailure and goes on', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'quarry-lc-'));
    const empty = join(tmp, 'empty.txt');
    await writeFile(empty, '');
    const err = await new QuarryLoader([empty, guide]).load().catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('FILE_EMPTY');
    expect((err as Error).message).toContain('empty.txt');
    const failed: DocumentElements[] = [];
    const docs = await new QuarryLoader([empty, guide], { onFailure: (d) => failed.push(d) }).load();
    expect(failed.map((f) => [f.source, f.error?.code, f.error?.node])).toEqual([[empty, 'FILE_EMPTY', 'partition']]);
    expect(docs.length).toBeGreaterThan(5);
  });

  it('loads the output of a quarry workflow: chunks after every node, by record id', async () => {
    const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
    const plan = engine.build({
      name: 'lc',
      nodes: [
        { name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } },
        { name: 'chunk', type: 'chunk', subtype: 'chunk_by_title', settings: { max_characters: 250 } },
      ],
    });
    const docs = await new QuarryLoader({ engine, plan, options: { source: { type: 'local', config: { path: docsDir, exclude: ['generated/**'] } } } }).load();
    expect(new Set(docs.map((d) => d.metadata.source))).toEqual(new Set(['field-guide.md', 'quarterly-notes.html', 'reading-list.csv', 'release-checklist.txt', 'station-log.xml', 'team-update.eml']));
    expect(docs.every((d) => d.pageContent.length <= 250 && d.metadata.filename === d.metadata.source)).toBe(true);
  });
});
