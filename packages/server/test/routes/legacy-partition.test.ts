import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_KEY_DETAIL } from '../../src/index.js';
import { hashElementId } from '@quarry/core';
import { makePdf, textLines, type FixturePage } from '../../../nodes/test/partition/formats/pdf/fixture.js';
import { KEYS, corpusDir, form, repoRoot, startServer, tempDir, type TestServer } from '../support.js';

const docs = path.join(repoRoot, 'examples', 'docs');

describe('POST /general/v0/general (legacy partition endpoint)', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  const post = (fd: FormData, headers: Record<string, string> = {}) =>
    t.call('POST', '/general/v0/general', { form: fd, key: null, headers: { 'unstructured-api-key': KEYS.beta, ...headers } });

  it('returns the elements JSON of one file, as the reference cleans it', async () => {
    const html = await readFile(path.join(docs, 'quarterly-notes.html'));
    const r = await post(form([['quarterly-notes.html', html]], 'files', { strategy: 'fast' }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
    const elements = r.body as Array<{ type: string; text: string; element_id: string; metadata: Record<string, unknown> }>;
    expect(elements[0]).toMatchObject({ type: 'Title', text: 'Quarterly Operations Notes' });
    expect(elements.some((e) => e.type === 'Table')).toBe(true);
    for (const e of elements) {
      expect(e.metadata.filename).toBe('quarterly-notes.html');
      expect(e.metadata).not.toHaveProperty('file_directory');
      expect(e.metadata).not.toHaveProperty('last_modified');
      expect(e.metadata).not.toHaveProperty('coordinates');
      // unique_element_ids defaults to false: deterministic SHA-256 ids (32 hex characters).
      expect(e.element_id).toMatch(/^[0-9a-f]{32}$/);
    }
    const again = await post(form([['quarterly-notes.html', html]], 'files', { strategy: 'fast' }));
    expect(again.body.map((e: { element_id: string }) => e.element_id)).toEqual(elements.map((e) => e.element_id));
    const unique = await post(form([['quarterly-notes.html', html]], 'files', { unique_element_ids: 'true' }));
    expect(unique.body[0].element_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an array per file for several files, chunks, and CSV', async () => {
    const txt = await readFile(path.join(docs, 'release-checklist.txt'));
    const md = await readFile(path.join(docs, 'field-guide.md'));
    const two = await post(
      form(
        [
          ['release-checklist.txt', txt],
          ['field-guide.md', md],
        ],
        'files',
      ),
    );
    expect(two.status).toBe(200);
    expect(two.body).toHaveLength(2);
    expect(two.body[1][0].metadata.filename).toBe('field-guide.md');

    const chunked = await post(form([['field-guide.md', md]], 'files', { chunking_strategy: 'by_title', max_characters: '300', combine_under_n_chars: '0' }));
    expect(chunked.status).toBe(200);
    const chunks = chunked.body as Array<{ type: string; text: string; metadata: { orig_elements?: string } }>;
    expect(chunks.every((c) => ['CompositeElement', 'Table', 'TableChunk'].includes(c.type) && c.text.length <= 300)).toBe(true);
    // The library's default include_orig_elements (true) applies to the legacy endpoint.
    expect(typeof chunks[0]!.metadata.orig_elements).toBe('string');
    const basic = await post(form([['field-guide.md', md]], 'files', { chunking_strategy: 'BASIC', max_characters: '200', include_orig_elements: 'false' }));
    expect(basic.body.every((c: { text: string; metadata: object }) => c.text.length <= 200 && !('orig_elements' in c.metadata))).toBe(true);

    const csv = await post(form([['release-checklist.txt', txt]], 'files', { output_format: 'text/csv' }));
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]!.startsWith('type,element_id,text')).toBe(true);
    expect(lines.length).toBe(1 + (await post(form([['release-checklist.txt', txt]], 'files'))).body.length);
  });

  it('keeps the reference error shapes', async () => {
    const txt = form([['a.txt', 'hello']], 'files', { strategy: 'slow' });
    expect(await post(txt)).toMatchObject({
      status: 400,
      body: { detail: "Invalid strategy: slow. Must be one of ['fast', 'hi_res', 'auto', 'ocr_only', 'vlm']" },
    });
    expect(await post(form([['a.txt', 'hello']], 'files', { chunking_strategy: 'by_magic' }))).toMatchObject({
      status: 400,
      body: { detail: "Invalid chunking strategy: by_magic. Must be one of ['basic', 'by_title', 'by_page', 'by_similarity']" },
    });
    expect(await post(form([['broken.pdf', '%PDF-1.7\n this is not a pdf']], 'files'))).toMatchObject({
      status: 422,
      body: { detail: 'File does not appear to be a valid PDF' },
    });
    expect(await post(form([['broken.docx', 'PK\u0003\u0004 not a zip']], 'files'))).toMatchObject({
      status: 422,
      body: { detail: 'File is not a valid docx' },
    });
    expect(await post(form([['blob.bin', new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3, 255, 254, 0, 7])]], 'files'))).toMatchObject({
      status: 400,
      body: { detail: 'File type application/octet-stream is not supported.' },
    });
    const badForm = await post(form([['a.txt', 'hello']], 'files', { coordinates: 'maybe', max_characters: 'lots' }));
    expect(badForm.status).toBe(422);
    expect(badForm.body.detail).toEqual([
      { loc: ['body', 'coordinates'], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' },
      { loc: ['body', 'max_characters'], msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' },
    ]);
    expect((await post(form([['a.txt', 'hello']], 'files', { chunking_strategy: 'by_title', max_characters: '10', overlap: '20' }))).status).toBe(422);
    expect(await post(form([], 'files', { strategy: 'fast' }))).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'files'], msg: 'Field required', type: 'missing' }] },
    });
    const get = await fetch(`${t.origin}/general/v0/general`);
    expect(get.status).toBe(405);
    expect(await get.json()).toEqual({ detail: 'Only POST requests are supported.' });
    expect(await t.call('POST', '/general/v0/general', { form: form([['a.txt', 'x']], 'files'), key: null })).toMatchObject({
      status: 401,
      body: { detail: MISSING_KEY_DETAIL },
    });
  });

  it('hashes ids with the final page numbers, so a page range sent with starting_page_number keeps its ids; chunks get hash ids too', async () => {
    // Every page opens with the same running header, the case where ids hashed before the page
    // numbers were shifted collided.
    const page = (n: number): FixturePage => ({
      texts: textLines(['Annual Report 2024', `Section ${n}`, `The figures of section ${n} are reviewed here in full.`]),
    });
    const elements = async (pdf: Uint8Array, fields: Record<string, string>) => {
      const r = await post(form([['report.pdf', pdf]], 'files', { strategy: 'fast', ...fields }));
      expect(r.status).toBe(200);
      return r.body as Array<{ element_id: string; text: string; metadata: { page_number: number } }>;
    };
    const whole = await elements(makePdf([page(1), page(2), page(3)]), {});
    const tail = await elements(makePdf([page(3)]), { starting_page_number: '3' });
    expect(tail.map((e) => e.metadata.page_number)).toEqual(tail.map(() => 3));
    expect(tail.map((e) => e.element_id)).toEqual(whole.filter((e) => e.metadata.page_number === 3).map((e) => e.element_id));
    expect(new Set([...whole, ...tail].map((e) => e.element_id)).size).toBe(whole.length);

    const chunks = await elements(makePdf([page(1), page(2), page(3)]), { chunking_strategy: 'by_page' });
    expect(chunks.map((c) => c.element_id)).toEqual(chunks.map((c) => hashElementId('report.pdf', c.text, c.metadata.page_number, 0)));
    const tailChunks = await elements(makePdf([page(3)]), { chunking_strategy: 'by_page', starting_page_number: '3' });
    expect(tailChunks.map((c) => c.element_id)).toEqual([chunks[2]!.element_id]);
    const uuids = await elements(makePdf([page(1)]), { chunking_strategy: 'basic', unique_element_ids: 'true' });
    expect(uuids[0]!.element_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it('answers 422 naming the server option for by_similarity and vlm when they are not configured', async () => {
    const sim = await post(form([['a.txt', 'hello there']], 'files', { chunking_strategy: 'by_similarity' }));
    expect(sim.status).toBe(422);
    expect(sim.body.detail).toContain('--similarity-embedder');
    expect(sim.body.detail).toContain('ServerOptions.legacy.similarityEmbedder');
    const vlm = await post(form([['a.txt', 'hello there']], 'files', { strategy: 'vlm' }));
    expect(vlm.status).toBe(422);
    expect(vlm.body.detail).toContain('--vlm-provider');
    expect(vlm.body.detail).toContain('ServerOptions.legacy.vlm');
  });

  it('reads list fields sent as `a,b`, `a+b` or `name[]` parts, as the official SDKs send them', async () => {
    const langs = async (fields: Record<string, string | string[]>) =>
      (await post(form([['a.txt', 'Hello there, this is a note.']], 'files', fields))).body[0].metadata.languages;
    expect(await langs({ languages: 'eng,fra' })).toEqual(['eng', 'fra']);
    expect(await langs({ languages: 'eng+fra' })).toEqual(['eng', 'fra']);
    expect(await langs({ 'languages[]': ['eng', 'deu'] })).toEqual(['eng', 'deu']);
  });

  it('unzips .gz uploads', async () => {
    const r = await post(form([['note.txt.gz', gzipSync(Buffer.from('Gzipped hello.'))]], 'files'));
    expect(r.status).toBe(200);
    expect(r.body[0]).toMatchObject({ text: 'Gzipped hello.', metadata: { filename: 'note.txt' } });
  });

  it.skipIf(!existsSync(corpusDir))('partitions a real PDF of the corpus, with coordinates on request', async () => {
    const pdf = await readFile(path.join(corpusDir, 'all-number-table.pdf'));
    const r = await post(form([['all-number-table.pdf', pdf]], 'files', { strategy: 'fast', coordinates: 'true', starting_page_number: '3' }));
    expect(r.status).toBe(200);
    expect(r.body.length).toBeGreaterThan(0);
    expect(r.body[0].metadata).toMatchObject({ filename: 'all-number-table.pdf', filetype: 'application/pdf', page_number: 3 });
    expect(r.body[0].metadata.coordinates).toBeDefined();
  });
});
