import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectorsPlugin } from '@quarry/connectors';
import { createEngine, isQuarryError } from '@quarry/core';
import { nodesPlugin, partition, type DocumentElements } from '@quarry/nodes';
import { Document, MetadataMode } from 'llamaindex';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { QuarryReader } from '../src/index.js';

const docsDir = fileURLToPath(new URL('../../../examples/docs', import.meta.url));
const guide = join(docsDir, 'field-guide.md');
let tmp: string | undefined;
afterAll(async () => tmp && rm(tmp, { recursive: true, force: true }));

const corpusPdf = fileURLToPath(new URL('../../../../shared/corpus/docs/multi-column-2p.pdf', import.meta.url));

describe('QuarryReader', () => {
  it("reads a file as one Document per file (no pages) with LlamaIndex's file_path and file_name beside quarry's metadata; elements mode gives one per element", async () => {
    const [doc, ...rest] = await new QuarryReader().loadData(guide);
    expect(rest).toHaveLength(0);
    expect(doc).toBeInstanceOf(Document);
    const elements = (await partition(guide)).filter((e) => e.text.trim() !== '');
    expect(doc!.text).toBe(elements.map((e) => e.text).join('\n\n'));
    expect(doc!.id_).toBe(guide);
    expect(doc!.metadata).toEqual({
      filename: 'field-guide.md',
      file_directory: docsDir,
      filetype: 'text/markdown',
      languages: ['eng'],
      source: guide,
      file_path: guide,
      file_name: 'field-guide.md',
    });

    const docs = await new QuarryReader({ mode: 'elements' }).loadData(guide);
    expect(docs).toHaveLength(elements.length);
    expect(docs[0]!.text).toBe('Quarry Field Guide');
    expect(docs[0]!.id_).toBe(docs[0]!.metadata.element_id);
    expect(docs[0]!.metadata).toMatchObject({
      type: 'Title',
      filename: 'field-guide.md',
      filetype: 'text/markdown',
      source: guide,
      file_path: guide,
      file_name: 'field-guide.md',
    });
    expect(docs.map((d) => d.metadata.type)).toEqual(elements.map((e) => e.type));
  });

  it('shows only the file name and page to the embedding model and the LLM', async () => {
    const [doc] = await new QuarryReader({ mode: 'elements' }).loadData(guide);
    const embedded = doc!.getContent(MetadataMode.EMBED);
    expect(embedded).toContain('file_name: field-guide.md');
    expect(embedded).toContain('Quarry Field Guide');
    expect(embedded).not.toContain(doc!.id_);
    expect(embedded).not.toContain('text/markdown');
    expect(doc!.getContent(MetadataMode.LLM)).toBe(embedded);
  });

  it.skipIf(!existsSync(corpusPdf))('gives a Document per page with page_label, and per chunk in chunks mode (corpus: multi-column-2p.pdf)', async () => {
    const pages = await new QuarryReader().loadData(corpusPdf);
    expect(pages.map((d) => [d.metadata.page_number, d.metadata.page_label, d.id_])).toEqual([
      [1, '1', `${corpusPdf}#page=1`],
      [2, '2', `${corpusPdf}#page=2`],
    ]);
    expect(pages[0]!.getContent(MetadataMode.EMBED)).toMatch(/^file_name: multi-column-2p\.pdf\npage_label: 1\n/);
    const chunks = await new QuarryReader({ mode: 'chunks', chunk: { subtype: 'chunk_by_title', settings: { max_characters: 800 } } }).loadData([corpusPdf]);
    expect(chunks.every((c) => c.text.length <= 800 && c.metadata.page_label === String(c.metadata.page_number) && c.metadata.type !== 'Title')).toBe(true);
  });

  it("reads several files chunked with the reader's settings", async () => {
    const docs = await new QuarryReader({
      mode: 'chunks',
      partition: { strategy: 'fast' },
      chunk: { subtype: 'basic', settings: { max_characters: 150 } },
    }).loadData([guide, join(docsDir, 'team-update.eml')]);
    expect(new Set(docs.map((d) => d.metadata.source))).toEqual(new Set([guide, join(docsDir, 'team-update.eml')]));
    expect(docs.every((d) => d.text.length <= 150 && ['CompositeElement', 'Table', 'TableChunk'].includes(d.metadata.type as string))).toBe(true);
  });

  it('reads a folder recursively with include/exclude globs and bytes; a file that fails is skipped and reported by default, thrown or handed over on request', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'quarry-li-'));
    await mkdir(join(tmp, 'mail'));
    await copyFile(guide, join(tmp, 'field-guide.md'));
    await copyFile(join(docsDir, 'team-update.eml'), join(tmp, 'mail', 'team-update.eml'));
    await copyFile(join(docsDir, 'reading-list.csv'), join(tmp, 'mail', 'reading-list.csv'));
    const bad = join(tmp, 'mail', 'bad.pdf');
    await writeFile(bad, '%PDF-1.7 this is not a PDF');
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((m: string) => void warnings.push(m));
    let reader: QuarryReader;
    let docs: Document[];
    try {
      reader = new QuarryReader({ exclude: ['*.csv'] });
      docs = await reader.loadData(tmp);
    } finally {
      warn.mockRestore();
    }
    expect(docs.map((d) => [d.metadata.file_name, d.metadata.file_path])).toEqual([
      ['field-guide.md', join(tmp, 'field-guide.md')],
      ['team-update.eml', join(tmp, 'mail', 'team-update.eml')],
    ]);
    expect(reader.failures.map((f) => [f.source, f.error?.node])).toEqual([[bad, 'partition']]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`quarry: skipped ${bad}: ${reader.failures[0]!.error!.code}`);

    const err = await new QuarryReader({ onFailure: 'throw' }).loadData([bad, guide]).catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe(reader.failures[0]!.error!.code);
    expect((err as Error).message).toContain('bad.pdf');
    const failed: DocumentElements[] = [];
    const handed = await new QuarryReader({ onFailure: (d) => failed.push(d), include: ['mail/*'] }).loadData(tmp);
    expect(failed.map((f) => f.source)).toEqual([bad]);
    expect(handed.map((d) => d.metadata.file_name)).toEqual(['reading-list.csv', 'team-update.eml']);

    const [fromBytes] = await new QuarryReader().loadData({ bytes: await readFile(guide), filename: 'guide.md' });
    expect(fromBytes!.metadata).toMatchObject({ file_name: 'guide.md', filename: 'guide.md', source: 'guide.md' });
    expect(fromBytes!.metadata.file_path).toBeUndefined();
    expect(fromBytes!.text).toBe(docs[0]!.text);
  });

  it('reads the output of a quarry workflow, by record id', async () => {
    const engine = createEngine().use(nodesPlugin).use(connectorsPlugin);
    const plan = engine.build({ name: 'li', nodes: [{ name: 'partition', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }] });
    const docs = await new QuarryReader({ mode: 'elements' }).loadData({
      engine,
      plan,
      options: { source: { type: 'local', config: { path: docsDir, include: ['*.md', '*.csv'] } } },
    });
    expect(new Set(docs.map((d) => d.metadata.source))).toEqual(new Set(['field-guide.md', 'reading-list.csv']));
    expect(docs.find((d) => d.metadata.source === 'reading-list.csv')!.metadata.type).toBe('Table');
  });
});
