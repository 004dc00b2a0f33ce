import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { hashElementId, isQuarryError } from '@quarry/core';
import { partitionFile } from '../../src/partition/partition-file.js';
import { testFormat, withBuiltins } from '../support/test-formats.js';
import { utf8 } from './format-options.js';
import { makePdf, textLines, type FixturePage } from './formats/pdf/fixture.js';
import { corpusBytes, expectedElements, hasCorpus } from './reference-metrics.js';

const DOC = utf8(
  [
    'Quarterly Report',
    '',
    'Revenue grew by ten percent in the third quarter, driven by strong demand.',
    '',
    '• Costs fell as the company renegotiated its leases',
    '',
    'Outlook',
    '',
    'Management expects growth to continue through the next fiscal year.',
    '',
  ].join('\n'),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/u;

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  return isQuarryError(e) ? e.code : undefined;
}

describe('partitionFile', () => {
  it('writes the shared metadata on every element', async () => {
    const out = await partitionFile(DOC, {
      filename: '/data/reports/q3.txt',
      last_modified: '2024-10-01T12:00:00',
      data_source: { url: 'file:///data/reports/q3.txt', record_locator: { path: '/data/reports/q3.txt' } },
    });
    expect(out.map((e) => e.type)).toEqual(['Title', 'NarrativeText', 'ListItem', 'Title', 'NarrativeText']);
    for (const el of out) {
      expect(el.element_id).toMatch(UUID);
      expect(el.metadata).toMatchObject({
        filename: 'q3.txt',
        file_directory: '/data/reports',
        filetype: 'text/plain',
        last_modified: '2024-10-01T12:00:00',
        languages: ['eng'],
        data_source: { url: 'file:///data/reports/q3.txt' },
      });
    }
  });

  it('links body elements to their title and remaps parent_id to the final ids', async () => {
    const out = await partitionFile(DOC, { filename: 'q3.txt', unique_element_ids: false });
    const [t1, n1, li, t2, n2] = out;
    expect(n1!.metadata.parent_id).toBe(t1!.element_id);
    expect(li!.metadata.parent_id).toBe(t1!.element_id);
    expect(t2!.metadata.parent_id).toBeUndefined();
    expect(n2!.metadata.parent_id).toBe(t2!.element_id);
    const ids = new Set(out.map((e) => e.element_id));
    for (const el of out) if (el.metadata.parent_id) expect(ids.has(el.metadata.parent_id)).toBe(true);
  });

  it('gives the reference hash ids when unique_element_ids is false', async () => {
    const out = await partitionFile(DOC, { filename: 'dir/q3.txt', unique_element_ids: false });
    out.forEach((el, i) => expect(el.element_id).toBe(hashElementId('q3.txt', el.text, undefined, i)));
    const again = await partitionFile(DOC, { filename: 'dir/q3.txt', unique_element_ids: false });
    expect(again.map((e) => e.element_id)).toEqual(out.map((e) => e.element_id));
  });

  it('numbers pages from starting_page_number before hashing, so a page range sent alone keeps its ids', async () => {
    // Every page opens with the same running header: hashed with the file's own page numbers, the
    // split's first page would collide with page 1 of the whole document.
    const page = (n: number): FixturePage => ({
      texts: textLines(['Annual Report 2024', `Section ${n}`, `The figures of section ${n} are reviewed here in full detail.`]),
    });
    const whole = await partitionFile(makePdf([page(1), page(2), page(3)]), { filename: 'report.pdf', strategy: 'fast', unique_element_ids: false });
    const tail = await partitionFile(makePdf([page(2), page(3)]), {
      filename: 'report.pdf',
      strategy: 'fast',
      unique_element_ids: false,
      starting_page_number: 2,
    });
    const onPages23 = whole.filter((e) => (e.metadata.page_number ?? 0) >= 2);
    expect(tail.map((e) => [e.metadata.page_number, e.text])).toEqual(onPages23.map((e) => [e.metadata.page_number, e.text]));
    expect(tail.map((e) => e.element_id)).toEqual(onPages23.map((e) => e.element_id));
    expect(tail[0]!.element_id).toBe(hashElementId('report.pdf', tail[0]!.text, 2, 0));
    expect(new Set([...whole, ...tail].map((e) => e.element_id)).size).toBe(whole.length);
    expect(await codeOf(partitionFile(DOC, { filename: 'a.txt', starting_page_number: 1.5 }))).toBe('INVALID_ARGUMENT');
  });

  // Documents whose elements come out with the reference's texts, so their ids must be the reference's.
  it.skipIf(!hasCorpus).each(['book-war-and-peace-1p.txt', 'factbook.xml', 'docx-tables.docx'])(
    'gives %s the ids of its reference output (skipped without ../shared/corpus)',
    async (name) => {
      const out = await partitionFile(corpusBytes(name), { filename: name, unique_element_ids: false });
      const reference = expectedElements(name);
      expect(out.map((e) => e.text)).toEqual(reference.map((e) => e.text));
      expect(out.map((e) => e.element_id)).toEqual(reference.map((e) => e.element_id));
    },
  );

  it('removes excluded element types and re-points orphaned children', async () => {
    const out = await partitionFile(DOC, { filename: 'q3.txt', exclude_elements: ['Title', 'ListItem'] });
    expect(out.map((e) => e.type)).toEqual(['NarrativeText', 'NarrativeText']);
    for (const el of out) expect(el.metadata.parent_id).toBeUndefined();
  });

  it('decodes text in the requested encoding', async () => {
    const bytes = iconv.encode('Die Größe der Straße wird morgen gemessen.', 'windows-1252');
    const out = await partitionFile(bytes, { filename: 'strasse.txt', encoding: 'windows-1252' });
    expect(out[0]!.text).toBe('Die Größe der Straße wird morgen gemessen.');
    expect(out[0]!.metadata.languages).toEqual(['deu']);
  });

  it('uses the caller filetype instead of detection, written in canonical form', async () => {
    const out = await partitionFile(utf8('# Heading One\n\nA paragraph is written here.'), { filename: 'notes', filetype: 'text/x-markdown' });
    expect(out[0]).toMatchObject({ type: 'Title', text: 'Heading One', metadata: { filetype: 'text/markdown' } });
  });

  it('writes the caller languages', async () => {
    const out = await partitionFile(DOC, { filename: 'q3.txt', languages: ['en', 'fr'] });
    expect(out.every((e) => e.metadata.languages?.join() === 'eng,fra')).toBe(true);
  });

  it('fails with FILE_EMPTY, FILETYPE_UNSUPPORTED and INVALID_ARGUMENT', async () => {
    expect(await codeOf(partitionFile(new Uint8Array(), { filename: 'empty.txt' }))).toBe('FILE_EMPTY');
    const wav = new Uint8Array([
      ...utf8('RIFF'),
      36,
      0,
      0,
      0,
      ...utf8('WAVEfmt '),
      16,
      0,
      0,
      0,
      1,
      0,
      1,
      0,
      0x44,
      0xac,
      0,
      0,
      0x88,
      0x58,
      1,
      0,
      2,
      0,
      16,
      0,
      ...utf8('data'),
      0,
      0,
      0,
      0,
    ]);
    const err = await partitionFile(wav, { filename: 'sound.wav' }).catch((e: unknown) => e);
    expect(isQuarryError(err) && err.code).toBe('FILETYPE_UNSUPPORTED');
    expect((err as Error).message).toContain('sound.wav');
    expect((err as Error).message).toMatch(/audio\/(x-)?wav/u);
    expect(await codeOf(partitionFile(DOC, { filename: '' }))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(partitionFile(DOC, { filename: 'a.txt', strategy: 'fastest' as never }))).toBe('INVALID_ARGUMENT');
  });

  it('stops with JOB_ABORTED when the signal is aborted', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    expect(await codeOf(partitionFile(DOC, { filename: 'q3.txt', signal: ctrl.signal }))).toBe('JOB_ABORTED');
  });

  it('wraps a partitioner crash as FILE_UNREADABLE in a plain sentence, the library message in details and cause', async () => {
    const formats = withBuiltins(testFormat('test-crash', ['application/x-test-crash'], 'crashPartitioner'));
    const err = await partitionFile(DOC, { filename: 'bad.crash', filetype: 'application/x-test-crash', formats }).catch((e: unknown) => e);
    expect(err).toMatchObject({
      code: 'FILE_UNREADABLE',
      message: 'bad.crash: cannot be read as TEST-CRASH (application/x-test-crash): the file is damaged or not what its type says',
      details: { filename: 'bad.crash', reason: "Cannot read properties of undefined (reading 'length')", partitioner: 'test-crash' },
    });
    expect((err as Error).cause).toBeInstanceOf(TypeError);
  });

  it('passes a QuarryError from a partitioner through unchanged', async () => {
    const formats = withBuiltins(testFormat('test-own-error', ['application/x-test-own'], 'ownErrorPartitioner'));
    const err = await partitionFile(DOC, { filename: 'x.own', filetype: 'application/x-test-own', formats }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'FILE_UNREADABLE', message: 'encrypted PDF' });
  });

  it('partitions embedded documents with attached_to_filename and their own file metadata', async () => {
    const formats = withBuiltins(testFormat('test-container', ['application/x-test-container'], 'containerPartitioner'));
    const out = await partitionFile(utf8('container'), { filename: 'mail.box', filetype: 'application/x-test-container', unique_element_ids: false, formats });
    expect(out.map((e) => [e.type, e.metadata.filename, e.metadata.filetype, e.metadata.attached_to_filename])).toEqual([
      ['NarrativeText', 'mail.box', 'application/x-test-container', undefined],
      ['Title', 'note.txt', 'text/plain', 'mail.box'],
      ['NarrativeText', 'note.txt', 'text/plain', 'mail.box'],
    ]);
    expect(out[2]!.metadata.parent_id).toBe(out[1]!.element_id);
    expect(new Set(out.map((e) => e.element_id)).size).toBe(3);
  });

  it('gives every element of a document and its attachments a distinct UUID, with parent_id naming one of them', async () => {
    const formats = withBuiltins(testFormat('test-container', ['application/x-test-container'], 'containerPartitioner'));
    const runs = await Promise.all(
      [1, 2].map(() => partitionFile(utf8('container'), { filename: 'mail.box', filetype: 'application/x-test-container', formats })),
    );
    for (const out of runs) {
      for (const el of out) expect(el.element_id).toMatch(UUID);
      expect(new Set(out.map((e) => e.element_id)).size).toBe(3);
      expect(out[2]!.metadata.parent_id).toBe(out[1]!.element_id);
    }
    // Random, not derived from the content: two runs share no id.
    expect(runs[0]!.some((el) => runs[1]!.some((other) => other.element_id === el.element_id))).toBe(false);
  });
});
