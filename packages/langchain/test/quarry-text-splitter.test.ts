import { fileURLToPath } from 'node:url';
import { Document } from '@langchain/core/documents';
import { chunk, partition } from '@quarry/nodes';
import { describe, expect, it } from 'vitest';
import { QuarryLoader, QuarryTextSplitter } from '../src/index.js';

const guide = fileURLToPath(new URL('../../../examples/docs/field-guide.md', import.meta.url));
const html = fileURLToPath(new URL('../../../examples/docs/quarterly-notes.html', import.meta.url));

describe('QuarryTextSplitter', () => {
  it('chunks loaded elements by title, as the chunk_by_title node does on the same elements', async () => {
    const loaded = await new QuarryLoader(guide, { mode: 'elements' }).load();
    const chunks = await new QuarryTextSplitter({ max_characters: 200 }).splitDocuments(loaded);
    const expected = await chunk(
      (await partition(guide)).filter((e) => e.text.trim() !== ''),
      'chunk_by_title',
      { max_characters: 200 },
    );
    expect(chunks.map((c) => c.pageContent)).toEqual(expected.map((c) => c.text));
    expect(chunks.map((c) => c.metadata.type)).toEqual(expected.map((c) => c.type));
    expect(chunks[0]!.metadata).toMatchObject({ filename: 'field-guide.md', source: guide });
  });

  it('chunks each source apart, and works as a Runnable', async () => {
    const loaded = [...(await new QuarryLoader(guide, { mode: 'elements' }).load()), ...(await new QuarryLoader(html, { mode: 'elements' }).load())];
    const chunks = await new QuarryTextSplitter({ max_characters: 10_000 }).invoke(loaded);
    // With room for everything, one chunk per source: the two files are never joined.
    expect(chunks.map((c) => c.metadata.source).filter((s, i, all) => all.indexOf(s) === i)).toEqual([guide, html]);
    expect(chunks.every((c) => c.metadata.filename === (c.metadata.source === guide ? 'field-guide.md' : 'quarterly-notes.html'))).toBe(true);
  });

  it('splits plain texts and documents not made by quarry, keeping their metadata', async () => {
    const text =
      'Introduction\n\nThe first paragraph is about granite and how it is cut.\n\nMethods\n\nThe second paragraph is about the saws that cut it, in long detail.';
    const splitter = new QuarryTextSplitter({ max_characters: 80, combine_text_under_n_chars: 0 });
    const texts = await splitter.splitText(text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.every((t) => t.length <= 80)).toBe(true);
    expect(texts.join(' ')).toContain('granite');
    const docs = await splitter.splitDocuments([new Document({ pageContent: text, metadata: { source: 'notes', author: 'ada' } })]);
    expect(docs.map((d) => d.pageContent)).toEqual(texts);
    expect(docs.every((d) => d.metadata.author === 'ada' && d.metadata.source === 'notes' && d.metadata.filename === undefined)).toBe(true);
    const created = await splitter.createDocuments([text], [{ author: 'bo' }]);
    expect(created.map((d) => d.metadata.author)).toEqual(texts.map(() => 'bo'));
  });

  it('fails wrong settings with SETTINGS_INVALID', async () => {
    await expect(new QuarryTextSplitter({ max_characters: 10, overlap: 50 }).splitText('some text')).rejects.toMatchObject({ code: 'SETTINGS_INVALID' });
  });
});
