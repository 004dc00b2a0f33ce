import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, startServer, tempDir, type TestServer } from './support.js';

const B = 'quarryTestBoundary7';
const MULTIPART = `multipart/form-data; boundary=${B}`;
const filePart = (headers = 'Content-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain', content = 'hello'): string =>
  `--${B}\r\n${headers}\r\n\r\n${content}\r\n`;
const closed = (...parts: string[]): string => `${parts.join('')}--${B}--\r\n`;

/** A malformed multipart request, and the 400 detail it gets on every multipart route. */
interface Shape {
  name: string;
  contentType: string;
  body: string;
  detail: RegExp;
}

const MALFORMED_MULTIPART: Shape[] = [
  {
    name: 'a multipart Content-Type without a boundary',
    contentType: 'multipart/form-data',
    body: closed(filePart()),
    detail: /^multipart\/form-data needs a boundary parameter/,
  },
  {
    name: 'an empty boundary',
    contentType: 'multipart/form-data; boundary=',
    body: closed(filePart()),
    detail: /needs a boundary parameter of 1 to 70 characters/,
  },
  {
    name: 'a boundary over 70 characters',
    contentType: `multipart/form-data; boundary=${'b'.repeat(300)}`,
    body: `--${'b'.repeat(300)}\r\n`,
    detail: /needs a boundary parameter of 1 to 70 characters/,
  },
  {
    name: 'a boundary the body does not contain',
    contentType: MULTIPART,
    body: 'plain text, no boundary anywhere',
    detail: /^malformed multipart body: the body ends before the closing boundary/,
  },
  {
    name: 'a body truncated inside a file (no closing boundary)',
    contentType: MULTIPART,
    body: `--${B}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhel`,
    detail: /^malformed multipart body: the body ends/,
  },
  {
    name: 'a part without Content-Disposition',
    contentType: MULTIPART,
    body: closed(filePart('Content-Type: text/plain')),
    detail: /^malformed multipart body: part 1 has no Content-Disposition header$/,
  },
  {
    name: 'a garbage part header line',
    contentType: MULTIPART,
    body: closed(filePart(), filePart('%%%% this is not a header %%%%')),
    detail: /^malformed multipart body: part 2 has a malformed header line/,
  },
  {
    name: 'part headers over 16 KiB',
    contentType: MULTIPART,
    body: closed(filePart(`Content-Disposition: form-data; name="files"; filename="a.txt"\r\nX-Padding: ${'y'.repeat(100_000)}`)),
    detail: /^malformed multipart body: the headers of part 1 are longer than 16384 bytes$/,
  },
  {
    name: 'a Content-Disposition that is not form-data',
    contentType: MULTIPART,
    body: closed(filePart('Content-Disposition: attachment; filename="a.txt"')),
    detail: /^malformed multipart body: the Content-Disposition of part 1 is not form-data$/,
  },
  {
    name: 'part headers not ended by an empty line',
    contentType: MULTIPART,
    body: `--${B}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n--${B}--\r\n`,
    detail: /^malformed multipart body: part 1 has no empty line after its headers$/,
  },
];

describe('malformed requests answer 4xx with a JSON detail, never 500', () => {
  const tmp = tempDir();
  let t: TestServer;
  let workflowId: string;
  beforeAll(async () => {
    t = await startServer({ dataDir: tmp.dir });
    const wf = await t.call('POST', '/workflows', {
      json: {
        name: 'w',
        workflow_type: 'custom',
        workflow_nodes: [{ name: 'P', type: 'partition', subtype: 'unstructured_api', settings: { strategy: 'fast' } }],
      },
    });
    expect(wf.status).toBe(200);
    workflowId = wf.body.id as string;
  });
  afterAll(async () => {
    await t.close();
    tmp.remove();
  });

  const routes = (): Array<[string, string]> => [
    ['legacy partition', `${t.origin}/general/v0/general`],
    ['on-demand job', `${t.base}/jobs`],
    ['workflow run', `${t.base}/workflows/${workflowId}/run`],
  ];

  it('answers 400 for every malformed multipart body on every multipart route', async () => {
    for (const [route, url] of routes()) {
      for (const shape of MALFORMED_MULTIPART) {
        const r = await rawRequest(url, { headers: { 'content-type': shape.contentType }, body: shape.body });
        expect({ route, shape: shape.name, status: r.status, type: r.headers.get('content-type') }).toEqual({
          route,
          shape: shape.name,
          status: 400,
          type: 'application/json; charset=utf-8',
        });
        expect(r.body.detail, `${route}: ${shape.name}`).toMatch(shape.detail);
      }
    }
    // Nothing was logged as a server failure, and no upload was left behind.
    expect(t.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
    expect(await readdir(path.join(tmp.dir, 'uploads'))).toEqual([]);
    expect((await t.call('GET', '/jobs')).body).toEqual([]);
  });

  it('answers what each route answers to a body with no parts or no multipart at all', async () => {
    const [legacy, jobs] = routes().map(([, url]) => url) as [string, string];
    const filesRequired = { detail: [{ loc: ['body', 'files'], msg: 'Field required', type: 'missing' }] };
    // An empty multipart body is an empty form: the required field is missing (422), as the Unstructured API answers.
    expect(await rawRequest(legacy, { headers: { 'content-type': MULTIPART }, body: '' })).toMatchObject({ status: 422, body: filesRequired });
    expect(await rawRequest(jobs, { headers: { 'content-type': MULTIPART }, body: '' })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body', 'request_data'], type: 'schema.required' }] },
    });
    // A closing boundary alone is an empty form too.
    expect(await rawRequest(legacy, { headers: { 'content-type': MULTIPART }, body: closed() })).toMatchObject({ status: 422, body: filesRequired });
    // A body that is not multipart: no files (422), or a media type no route reads (415).
    expect(await rawRequest(legacy, { headers: { 'content-type': 'text/plain' }, body: 'hello' })).toMatchObject({ status: 422, body: filesRequired });
    expect(await rawRequest(legacy, { headers: { 'content-type': 'application/json' }, body: '{"files": "a.txt"}' })).toMatchObject({
      status: 422,
      body: filesRequired,
    });
    expect(await rawRequest(jobs, { headers: { 'content-type': 'text/plain' }, body: 'hello' })).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ['body'], type: 'request.multipart_required' }] },
    });
    for (const url of [legacy, jobs]) {
      expect(await rawRequest(url, { headers: { 'content-type': 'application/octet-stream' }, body: 'hello' })).toMatchObject({
        status: 415,
        body: { detail: 'Unsupported Media Type' },
      });
      expect(await rawRequest(url, { headers: { 'content-type': `multipart/mixed; boundary=${B}` }, body: closed(filePart()) })).toMatchObject({
        status: 415,
        body: { detail: 'Unsupported Media Type' },
      });
      expect(await rawRequest(url, { body: 'hello' })).toMatchObject({ status: 415 });
    }
    expect(t.logs.filter((l) => l.includes('"level":50'))).toEqual([]);
  });

  it('reads a field sent as application/json as its text, and answers 422 when it is not JSON', async () => {
    const jobs = `${t.base}/jobs`;
    const asJson = (value: string): string => closed(filePart('Content-Disposition: form-data; name="request_data"\r\nContent-Type: application/json', value));
    const bad = await rawRequest(jobs, { headers: { 'content-type': MULTIPART }, body: asJson('{not json') });
    expect(bad).toMatchObject({ status: 422, body: { detail: [{ loc: ['body'], type: 'json_invalid' }] } });
    // Valid JSON reaches the service as the JSON text (here: a template that needs input files).
    const good = await rawRequest(jobs, { headers: { 'content-type': MULTIPART }, body: asJson('{"template_id": "fast_partition"}') });
    expect(good).toMatchObject({ status: 422, body: { detail: [{ loc: ['body', 'input_files'], msg: 'an on-demand job needs at least one input file' }] } });
  });

  it('still reads a well-formed body with a preamble, an epilogue and a quoted boundary', async () => {
    const body = `preamble\r\n${filePart()}--${B}--\r\nepilogue`;
    const r = await rawRequest(`${t.origin}/general/v0/general`, { headers: { 'content-type': `multipart/form-data; boundary="${B}"` }, body });
    expect(r.status).toBe(200);
    expect(r.body[0]).toMatchObject({ text: 'hello', metadata: { filename: 'a.txt' } });
  });
});
