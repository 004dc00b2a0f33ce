import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isQuarryError, type Element } from '@quarry/core';
import { chunk, chunkByTitle, partition } from '../../src/index.js';
import { chunkingOptions } from '../../src/chunk/options.js';
import { CORPUS_DIR } from '../support/mutants.js';

const guide = fileURLToPath(new URL('../../../../examples/docs/field-guide.md', import.meta.url));
const html = fileURLToPath(new URL('../../../../examples/docs/quarterly-notes.html', import.meta.url));
const pdf = path.join(CORPUS_DIR, 'all-number-table.pdf');

async function codeOf(p: Promise<unknown>): Promise<{ code: string; message: string; details: Record<string, unknown> }> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!isQuarryError(e)) throw new Error(`expected a QuarryError, got ${String(e)}`);
  return { code: e.code, message: e.message, details: e.details };
}

describe('partition()', () => {
  it('partitions a path: elements typed, with the file name and directory of the path', async () => {
    const elements = await partition(guide, { strategy: 'fast', unique_element_ids: false });
    expect(elements[0]).toMatchObject({
      type: 'Title',
      text: 'Quarry Field Guide',
      metadata: { filename: 'field-guide.md', file_directory: path.dirname(guide), filetype: 'text/markdown' },
    });
    expect(elements.length).toBeGreaterThan(5);
  });

  it('partitions bytes: the filename option names them; without it the type comes from the content', async () => {
    const bytes = await readFile(html);
    const named = await partition(bytes, { filename: 'notes.html', unique_element_ids: false });
    expect(named[0]!.metadata).toMatchObject({ filename: 'notes.html', filetype: 'text/html' });
    const anonymous = await partition(new Uint8Array(bytes), { unique_element_ids: false });
    expect(anonymous[0]!.metadata).toMatchObject({ filename: 'document', filetype: 'text/html' });
    expect(anonymous.map((e) => e.text)).toEqual(named.map((e) => e.text));
  });

  it('applies the workflow settings (exclude_elements)', async () => {
    const all = await partition(guide, { strategy: 'fast' });
    const noTitles = await partition(guide, { strategy: 'fast', exclude_elements: ['Title'] });
    expect(all.some((e) => e.type === 'Title')).toBe(true);
    expect(noTitles.some((e) => e.type === 'Title')).toBe(false);
    expect(noTitles.length).toBe(all.filter((e) => e.type !== 'Title').length);
  });

  it.skipIf(!existsSync(pdf))('reads a PDF with each format choosing when no strategy is given (corpus: all-number-table.pdf)', async () => {
    const elements = await partition(pdf);
    expect(elements.length).toBeGreaterThan(0);
    expect(elements[0]!.metadata).toMatchObject({ filename: 'all-number-table.pdf', filetype: 'application/pdf', page_number: 1 });
  });

  it('fails wrong settings with SETTINGS_INVALID naming each field, as a workflow does', async () => {
    const e = await codeOf(partition(guide, { strategy: 'ultra' as 'fast', exclude_elements: ['Nope' as 'Title'] }));
    expect(e.code).toBe('SETTINGS_INVALID');
    expect(e.message).toMatch(/\/strategy/);
    expect(e.message).toMatch(/\/exclude_elements\/0/);
    const unknown = await codeOf(partition(guide, { max_pages: 3 } as never));
    expect(unknown.code).toBe('SETTINGS_INVALID');
    expect(unknown.message).toMatch(/max_pages/);
  });

  it('fails a path that cannot be read with DOCUMENT_READ_FAILED, and empty bytes with FILE_EMPTY', async () => {
    const missing = await codeOf(partition('/nonexistent/report.pdf'));
    expect(missing).toMatchObject({ code: 'DOCUMENT_READ_FAILED', details: { path: '/nonexistent/report.pdf' } });
    expect((await codeOf(partition(new Uint8Array(), { filename: 'x.txt' }))).code).toBe('FILE_EMPTY');
  });
});

describe('chunk()', () => {
  let elements: Element[] = [];

  it('chunks by title with the workflow settings, as chunkByTitle with the same options does', async () => {
    elements = await partition(guide, { strategy: 'fast', unique_element_ids: false });
    const chunks = await chunk(elements, 'chunk_by_title', { max_characters: 200, combine_text_under_n_chars: 0 });
    const direct = chunkByTitle(elements, chunkingOptions('by_title', { max_characters: 200, combine_text_under_n_chars: 0 }));
    expect(chunks.map((c) => c.text)).toEqual(direct.map((c) => c.text));
    expect(chunks.every((c) => c.text.length <= 200)).toBe(true);
    expect(chunks.length).toBeGreaterThan(2);
  });

  it('chunks by character and by page', async () => {
    const byCharacter = await chunk(elements, 'chunk_by_character', { max_characters: 120 });
    expect(byCharacter.every((c) => c.text.length <= 120)).toBe(true);
    const byPage = await chunk(elements, 'chunk_by_page', { max_characters: 10_000 });
    expect(byPage.length).toBeLessThan(byCharacter.length);
  });

  it('fails wrong settings with SETTINGS_INVALID naming each field, as a workflow does', async () => {
    const e = await codeOf(chunk(elements, 'chunk_by_title', { max_characters: 100, overlap: 200 }));
    expect(e.code).toBe('SETTINGS_INVALID');
    expect(e.message).toMatch(/\/overlap/);
    const unknown = await codeOf(chunk(elements, 'chunk_by_character', { maxChars: 5 } as never));
    expect(unknown.code).toBe('SETTINGS_INVALID');
    expect(unknown.message).toMatch(/maxChars/);
    const noModel = await codeOf(chunk(elements, 'chunk_by_similarity', {}));
    expect(noModel.code).toBe('SETTINGS_INVALID');
    expect(noModel.message).toMatch(/embedding/);
  });

  it('takes every name quarry chunk takes (the aliases basic, by_title, by_page), and lists them for a wrong one', async () => {
    const settings = { max_characters: 150 };
    expect((await chunk(elements, 'by_title', settings)).map((c) => c.text)).toEqual((await chunk(elements, 'chunk_by_title', settings)).map((c) => c.text));
    expect((await chunk(elements, 'basic', settings)).map((c) => c.text)).toEqual((await chunk(elements, 'chunk_by_character', settings)).map((c) => c.text));
    expect((await chunk(elements, 'by_page', settings)).map((c) => c.text)).toEqual((await chunk(elements, 'chunk_by_page', settings)).map((c) => c.text));
    const wrong = await codeOf(chunk(elements, 'by_section', {}));
    expect(wrong.code).toBe('SETTINGS_INVALID');
    expect(wrong.message).toBe(
      'unknown chunker "by_section": expected one of chunk_by_character (basic), chunk_by_page (by_page), chunk_by_similarity (by_similarity), chunk_by_title (by_title)',
    );
    expect(wrong.details.valid).toHaveLength(4);
  });
});
