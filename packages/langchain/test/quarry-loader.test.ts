import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from '@langchain/core/documents';
import { connectorsPlugin } from '@quarry/connectors';
import { createEngine, isQuarryError } from '@quarry/core';
import { nodesPlugin, partition, type DocumentElements } from '@quarry/nodes';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { QuarryLoader } from '../src/index.js';

const docsDir = fileURLToPath(new URL('../../../examples/docs', import.meta.url));
const guide = join(docsDir, 'field-guide.md');
const corpusPdf = fileURLToPath(new URL('../../../../shared/corpus/docs/multi-column-2p.pdf', import.meta.url));
const tmps: string[] = [];
let tmp = '';
afterAll(async () => Promise.all(tmps.map((t) => rm(t, { recursive: true, force: true }))));

// A folder as users have them: a sub-folder, a draft folder to exclude, a hidden file, a file that cannot be read.
async function folder(): Promise<string> {
  tmp = await mkdtemp(join(tmpdir(), 'quarry-lc-'));
  tmps.push(tmp);
  await mkdir(join(tmp, 'notes'));
  await mkdir(join(tmp, 'drafts'));
  await copyFile(guide, join(tmp, 'field-guide.md'));
  await copyFile(join(docsDir, 'quarterly-notes.html'), join(tmp, 'notes', 'quarterly-notes.html'));
  await copyFile(join(docsDir, 'release-checklist.txt'), join(tmp, 'drafts', 'release-checklist.txt'));
  await writeFile(join(tmp, '.hidden.md'), '# Hidden\n\nNot listed.');
  await writeFile(join(tmp, 'notes', 'empty.txt'), '');
  return tmp;
}

describe('QuarryLoader', () => {
  it("loads a file as one Document per file (no pages) with LangChain's source beside quarry's metadata; elements mode gives one per element", async () => {
    const [doc, ...rest] = await new QuarryLoader(guide).load();
    expect(rest).toHaveLength(0);
    expect(doc).toBeInstanceOf(Document);
    const elements = (await partition(guide)).filter((e) => e.text.trim() !== '');
    expect(doc!.pageContent).toBe(elements.map((e) => e.text).join('\n\n'));
    expect(doc!.metadata).toEqual({ filename: 'field-guide.md', file_directory: docsDir, filetype: 'text/markdown', languages: ['eng'], source: guide });
    expect(doc!.id).toBe(guide);

    const docs = await new QuarryLoader(guide, { mode: 'elements' }).load();
    expect(docs).toHaveLength(elements.length);
    expect(docs[0]!.pageContent).toBe('Quarry Field Guide');
    expect(docs[0]!.metadata).toMatchObject({ type: 'Title', filename: 'field-guide.md', file_directory: docsDir, filetype: 'text/markdown', source: guide });
    expect(docs[0]!.id).toBe(docs[0]!.metadata.element_id);
    expect(docs.map((d) => d.metadata.type)).toEqual(elements.map((e) => e.type));
    // Nested and object-list metadata is flat: scalars and lists of scalars only.
    for (const d of docs)
      for (const v of Object.values(d.metadata))
        expect(['string', 'number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x !== 'object'))).toBe(true);
  });

  it.skipIf(!existsSync(corpusPdf))('gives a Document per page with loc.pageNumber, and per chunk in chunks mode (corpus: multi-column-2p.pdf)', async () => {
    const pages = await new QuarryLoader(corpusPdf).load();
    expect(pages.map((d) => [d.metadata.page_number, d.metadata.loc, d.id])).toEqual([
      [1, { pageNumber: 1 }, `${corpusPdf}#page=1`],
      [2, { pageNumber: 2 }, `${corpusPdf}#page=2`],
    ]);
    const elements = await new QuarryLoader(corpusPdf, { mode: 'elements' }).load();
    expect(pages.map((p) => p.pageContent).join('\n\n')).toBe(elements.map((e) => e.pageContent).join('\n\n'));
    const chunks = await new QuarryLoader(corpusPdf, { mode: 'chunks' }).load();
    expect(
      chunks.every(
        (c) => c.pageContent.length <= 500 && c.metadata.type !== 'Title' && (c.metadata.loc as { pageNumber: number }).pageNumber === c.metadata.page_number,
      ),
    ).toBe(true);
    // Longer Documents than elements give (the complaint: a median of 54 characters per Document).
    const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(median(chunks.map((c) => c.pageContent.length))).toBeGreaterThan(median(elements.map((e) => e.pageContent.length)));
    expect(new QuarryLoader(corpusPdf).failures).toEqual([]);
  });

  it('loads a folder recursively with include/exclude globs, skipping hidden files; a file that fails is skipped, reported and kept in failures', async () => {
    const dir = await folder();
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((m: string) => void warnings.push(m));
    try {
      const loader = new QuarryLoader(dir, { exclude: ['drafts'] });
      const docs = await loader.load();
      expect(docs.map((d) => d.metadata.source)).toEqual([join(dir, 'field-guide.md'), join(dir, 'notes', 'quarterly-notes.html')]);
      expect(loader.failures.map((f) => [f.source, f.error?.code])).toEqual([[join(dir, 'notes', 'empty.txt'), 'FILE_EMPTY']]);
      expect(warnings).toEqual([expect.stringMatching(/^quarry: skipped .*empty\.txt: FILE_EMPTY: /) as unknown]);
      const mdOnly = await new QuarryLoader(dir, { include: ['*.md'] }).load();
      expect(mdOnly.map((d) => d.metadata.source)).toEqual([join(dir, 'field-guide.md')]);
      const topOnly = await new QuarryLoader([dir], { recursive: false }).load();
      expect(topOnly.map((d) => d.metadata.source)).toEqual([join(dir, 'field-guide.md')]);
    } finally {
      warn.mockRestore();
    }
  });

  it("throws the failing document's code with onFailure: 'throw', or hands it to a function and goes on", async () => {
    const dir = await folder();
    const empty = join(dir, 'notes', 'empty.txt');
    const err = await new QuarryLoader([empty, guide], { onFailure: 'throw' }).load().catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('FILE_EMPTY');
    expect((err as Error).message).toContain('empty.txt');
    const failed: DocumentElements[] = [];
    const docs = await new QuarryLoader([empty, join(dir, 'missing.pdf'), guide], { onFailure: (d) => failed.push(d) }).load();
    expect(failed.map((f) => [f.source, f.error?.code, f.error?.node])).toEqual([
      [empty, 'FILE_EMPTY', 'partition'],
      [join(dir, 'missing.pdf'), 'DOCUMENT_READ_FAILED', 'partition'],
    ]);
    expect(docs.map((d) => d.metadata.source)).toEqual([guide]);
  });

  it('loads bytes, named or not, and a list, lazily: leaving the loop early partitions no further file', async () => {
    const bytes = await readFile(join(docsDir, 'quarterly-notes.html'));
    const [named] = await new QuarryLoader({ bytes, filename: 'notes.html' }).load();
    expect(named!.metadata).toMatchObject({ filename: 'notes.html', filetype: 'text/html', source: 'notes.html' });
    const [anonymous] = await new QuarryLoader(new Uint8Array(bytes)).load();
    expect(anonymous!.metadata).toMatchObject({ filename: 'document', filetype: 'text/html', source: 'bytes[0]' });
    expect(anonymous!.pageContent).toBe(named!.pageContent);

    const loader = new QuarryLoader([guide, join(docsDir, 'quarterly-notes.html'), join(docsDir, 'no-such-file.pdf')], {
      mode: 'chunks',
      chunk: { subtype: 'by_title', settings: { max_characters: 300 } },
    });
    const seen = new Set<string>();
    for await (const doc of loader.lazyLoad()) {
      expect(doc.metadata.type).toMatch(/^(CompositeElement|Table|TableChunk)$/);
      expect(doc.pageContent.length).toBeLessThanOrEqual(300);
      seen.add(doc.metadata.source as string);
      if (seen.size === 2) break;
    }
    // The missing third file was never reached, so nothing failed.
    expect([...seen]).toEqual([guide, join(docsDir, 'quarterly-notes.html')]);
    expect(loader.failures).toEqual([]);
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
    const docs = await new QuarryLoader(
      { engine, plan, options: { source: { type: 'local', config: { path: docsDir, exclude: ['generated/**'] } } } },
      { mode: 'elements' },
    ).load();
    expect(new Set(docs.map((d) => d.metadata.source))).toEqual(
      new Set(['field-guide.md', 'quarterly-notes.html', 'reading-list.csv', 'release-checklist.txt', 'station-log.xml', 'team-update.eml']),
    );
    expect(docs.every((d) => d.pageContent.length <= 250 && d.metadata.filename === d.metadata.source)).toBe(true);
  });
});
