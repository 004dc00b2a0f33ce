import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { damageCentralDirectory, docx, goodDocx, gzipBomb, passwordPdf, storedZip } from '../damaged-documents.js';
import { KEYS, form, startServer, tempDir, waitForJob, type Reply, type TestServer } from '../support.js';

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('legacy endpoint: documents it cannot read, and compressed uploads', () => {
  const tmp = tempDir();
  let t: TestServer;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  const post = (files: Array<[string, string | Uint8Array]>, fields: Record<string, string> = {}): Promise<Reply> =>
    t.call('POST', '/general/v0/general', { form: form(files, 'files', fields), key: null, headers: { 'unstructured-api-key': KEYS.beta } });

  it('answers 422 with the code for every damaged DOCX, never 500', async () => {
    expect((await post([['ok.docx', goodDocx('Readable text')]])).body[0]).toMatchObject({ text: 'Readable text' });
    const damaged: Array<[string, Uint8Array]> = [
      // file-type reads the central directory to tell DOCX from XLSX, and threw an uncoded error on this one.
      ['broken-directory.docx', damageCentralDirectory(goodDocx('Readable text'))],
      ['truncated.docx', goodDocx('Readable text').subarray(0, 120)],
      ['garbled-xml.docx', docx('<w:document xmlns:w="x"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p')],
      ['no-main-part.docx', storedZip([['[Content_Types].xml', '<Types/>']])],
    ];
    for (const [name, bytes] of damaged) {
      expect({ name, ...(await post([[name, bytes]])) }).toMatchObject({
        name,
        status: 422,
        body: { detail: 'File is not a valid docx', code: 'FILE_UNREADABLE' },
      });
    }
    // Without an extension to go by, the damaged archive is still an answer.
    const bare = await post([['broken-directory', damageCentralDirectory(goodDocx('x'))]]);
    expect(bare).toMatchObject({ status: 422, body: { code: 'FILE_UNREADABLE', detail: expect.stringMatching(/^broken-directory: damaged content/) } });
    expect(t.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('answers 422 with the code for the other coded document errors, and 400 where the Unstructured API does', async () => {
    expect(await post([['locked.pdf', passwordPdf()]])).toMatchObject({
      status: 422,
      body: { code: 'PDF_PASSWORD_REQUIRED', detail: expect.stringContaining('user password') },
    });
    const entries: Array<[string, string]> = [['[Content_Types].xml', '<Types/>']];
    for (let i = 0; i <= 50_000; i++) entries.push([`e/${i}`, '']);
    expect(await post([['bomb.docx', storedZip(entries)]])).toMatchObject({
      status: 422,
      body: { code: 'ARCHIVE_TOO_LARGE', detail: expect.stringContaining('entries (limit 50000)') },
    });
    expect(await post([['empty.txt', '']])).toMatchObject({ status: 400, body: { detail: 'File empty.txt is empty.', code: 'FILE_EMPTY' } });
    expect(await post([['blob.bin', new Uint8Array([0, 159, 146, 150, 0, 1, 2, 3])]])).toMatchObject({
      status: 400,
      body: { detail: 'File type application/octet-stream is not supported.', code: 'FILETYPE_UNSUPPORTED' },
    });
    expect(await post([['a.txt', 'hello']], { chunking_strategy: 'basic', max_characters: '10', overlap: '20' })).toMatchObject({
      status: 422,
      body: { code: 'CHUNKING_OPTIONS_INVALID' },
    });
    expect(t.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('reports the same code for the same damaged file in an on-demand job', async () => {
    const job = await t.call('POST', '/jobs', {
      form: form([['broken-directory.docx', damageCentralDirectory(goodDocx('x'))]], 'input_files', {
        request_data: JSON.stringify({ template_id: 'fast_partition' }),
      }),
    });
    expect(job.status).toBe(200);
    expect((await waitForJob(t, job.body.id)).status).toBe('FAILED');
    const failed = await t.call('GET', `/jobs/${job.body.id}/failed-files`);
    expect(failed.body.failed_files).toEqual([
      { document: 'broken-directory.docx', error: expect.stringMatching(/^FILE_UNREADABLE: broken-directory\.docx: /) },
    ]);
  });

  it('answers 413 to a gzip bomb within the upload size limit', async () => {
    const bomb = gzipBomb(1024);
    expect(bomb.length).toBeLessThan(2 * 2 ** 20);
    const r = await post([['zeros.txt.gz', bomb]]);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({
      detail: `File zeros.txt.gz inflates to more than ${10 * 2 ** 20} bytes, the size limit of an uploaded file.`,
      code: 'INPUT_TOO_LARGE',
    });
  });

  it('answers 422 to bytes that are not gzip', async () => {
    expect(await post([['note.txt.gz', 'not gzip at all']])).toMatchObject({
      status: 422,
      body: { code: 'FILE_UNREADABLE', detail: expect.stringMatching(/^File note\.txt\.gz is not valid gzip: /) },
    });
    const truncated = gzipSync(Buffer.from('Gzipped hello, and more text after it.')).subarray(0, 20);
    expect(await post([['cut.txt.gz', truncated]])).toMatchObject({
      status: 422,
      body: { code: 'FILE_UNREADABLE', detail: expect.stringMatching(/^File cut\.txt\.gz is not valid gzip: unexpected end of file/) },
    });
    const declared = await post([['report.gz', gzipSync(goodDocx('Inside the gzip'))]], { gz_uncompressed_content_type: DOCX_MIME });
    expect(declared.body[0]).toMatchObject({ text: 'Inside the gzip', metadata: { filename: 'report', filetype: DOCX_MIME } });
  });
});

describe('legacy endpoint: the inflated size limit is the upload size limit', () => {
  const tmp = tempDir();
  let t: TestServer;
  const limit = 64 * 1024;
  beforeAll(async () => (t = await startServer({ dataDir: tmp.dir, service: { inputLimits: { maxFileBytes: limit } } })));
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  it('inflates up to the limit and answers 413 one byte past it', async () => {
    const post = (name: string, bytes: Uint8Array): Promise<Reply> =>
      t.call('POST', '/general/v0/general', { form: form([[name, bytes]], 'files'), key: null, headers: { 'unstructured-api-key': KEYS.beta } });
    const text = (n: number): Buffer => Buffer.from(`${'word '.repeat(n / 5 - 1)}last.`.padEnd(n, '.'));
    const atLimit = await post('at-limit.txt.gz', gzipSync(text(limit)));
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.at(-1).text).toMatch(/last\.+$/);
    expect(await post('over.txt.gz', gzipSync(text(limit + 1)))).toMatchObject({
      status: 413,
      body: { code: 'INPUT_TOO_LARGE', detail: `File over.txt.gz inflates to more than ${limit} bytes, the size limit of an uploaded file.` },
    });
  });
});
