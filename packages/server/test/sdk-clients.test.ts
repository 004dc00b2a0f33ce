/**
 * The official clients of the Unstructured API against a real quarry server on loopback: the
 * `unstructured-client` TS SDK (`general.partition`, with its client-side PDF splitting) over every
 * strategy, chunking strategy and split-PDF option it offers, and LangChain's UnstructuredLoader.
 * Split and unsplit calls of one PDF are compared id by id. The vision model of `strategy=vlm` is
 * a loopback server speaking the OpenAI chat completions wire format (the server reaches it
 * through the official `openai` SDK); `by_similarity` embeds with a tiny local ONNX model.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnstructuredLoader } from '@langchain/community/document_loaders/fs/unstructured';
import { HTTPClient, UnstructuredClient } from 'unstructured-client';
import { HTTPValidationError, SDKError } from 'unstructured-client/sdk/models/errors';
import { Strategy, VLMModelProvider, type PartitionParameters } from 'unstructured-client/sdk/models/shared';
import { hashElementId } from '@quarry/core';
import { makePdf, textLines, type FixturePage } from '../../nodes/test/partition/formats/pdf/fixture.js';
import { writeTinyBert } from '../../nodes/test/support/tiny-bert.js';
import { KEYS, corpusDir, startServer, tempDir, type TestServer } from './support.js';

/** An element as the clients receive it. */
interface Out {
  type: string;
  element_id: string;
  text: string;
  metadata: { page_number?: number; filename?: string; [field: string]: unknown };
}

const reliancePath = path.join(corpusDir, 'reliance.pdf');
const hasReliance = existsSync(reliancePath);
if (!hasReliance)
  console.warn(`sdk-clients.test.ts: ${reliancePath} is absent (the shared corpus beside the repository); the tests on reliance.pdf are skipped`);
const reliance = hasReliance ? new Uint8Array(readFileSync(reliancePath)) : new Uint8Array();

// Three small text pages opening with the same running header: quick enough for hi_res and OCR.
const fixturePage = (n: number): FixturePage => ({
  texts: textLines(['Annual Report 2024', `Section ${n}`, `The figures of section ${n} are reviewed here.`]),
});
const fixture = makePdf([fixturePage(1), fixturePage(2), fixturePage(3)]);

/** The ids the Python library unstructured gives these elements: per page, numbered in order. */
function referenceIds(elements: readonly Out[]): string[] {
  const seq = new Map<number | undefined, number>();
  return elements.map((e) => {
    const n = seq.get(e.metadata.page_number) ?? 0;
    seq.set(e.metadata.page_number, n + 1);
    return hashElementId(e.metadata.filename, e.text, e.metadata.page_number, n);
  });
}

const ids = (elements: readonly Out[]): string[] => elements.map((e) => e.element_id);

/** Every id distinct and the reference's hash of the element's final page number. */
function expectReferenceIds(elements: readonly Out[]): void {
  expect(elements.length).toBeGreaterThan(0);
  expect(new Set(ids(elements)).size).toBe(elements.length);
  expect(ids(elements)).toEqual(referenceIds(elements));
}

// The vision model: every page is read as the same title and paragraph, so only page numbers
// tell the elements of different pages apart (the case that used to give duplicate ids).
const VLM_PAGE = '<h1 data-category="Title">Quarterly report</h1>\n<p data-category="NarrativeText">Revenue grew in every region.</p>';
interface ChatRequest {
  model: string;
  images: number;
}
async function startChatCompletions(): Promise<{ url: string; requests: ChatRequest[]; close(): Promise<void> }> {
  const requests: ChatRequest[] = [];
  const server: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${req.url}`, type: 'invalid_request_error' } }));
        return;
      }
      const b = JSON.parse(body) as { model: string; messages: unknown[] };
      requests.push({ model: b.model, images: JSON.stringify(b.messages).split('"type":"image_url"').length - 1 });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1,
          model: b.model,
          choices: [{ index: 0, message: { role: 'assistant', content: VLM_PAGE, refusal: null }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('official clients against quarry serve', () => {
  const tmp = tempDir('quarry-sdk-');
  let t: TestServer;
  let chat: Awaited<ReturnType<typeof startChatCompletions>>;
  let client: UnstructuredClient;

  beforeAll(async () => {
    chat = await startChatCompletions();
    const model = writeTinyBert(path.join(tmp.dir, 'tiny-bert'));
    t = await startServer({
      dataDir: path.join(tmp.dir, 'data'),
      legacy: {
        similarityEmbedder: { subtype: 'local', model_path: model.dir },
        vlm: { provider: 'openai', model: 'gpt-4o', apiKey: 'sk-test-0123456789', baseUrl: `${chat.url}/v1` },
      },
    });
    client = new UnstructuredClient({ serverURL: t.origin, security: { apiKeyAuth: KEYS.acme } });
  });
  afterAll(async () => {
    await t?.close();
    await chat?.close();
    tmp.remove();
  });

  /** `general.partition` of one file; the SDK splits PDFs unless `splitPdfPage: false`. */
  async function partition(
    fileName: string,
    content: Uint8Array,
    params: Omit<PartitionParameters, 'files'>,
    sdk: UnstructuredClient = client,
  ): Promise<Out[]> {
    const res = await sdk.general.partition({ partitionParameters: { files: { content, fileName }, ...params } });
    expect(Array.isArray(res)).toBe(true);
    return res as Out[];
  }

  describe.skipIf(!hasReliance)('reliance.pdf (3 pages), strategy fast', () => {
    // The unsplit fast call every test here compares with, made once.
    let wholeCall: Promise<Out[]> | undefined;
    const wholeFast = (): Promise<Out[]> => (wholeCall ??= partition('reliance.pdf', reliance, { strategy: Strategy.Fast, splitPdfPage: false }));

    it('gives the same ids split and unsplit, with any concurrency, page range and starting page number, none duplicated', async () => {
      const whole = await wholeFast();
      expect(new Set(whole.map((e) => e.metadata.page_number))).toEqual(new Set([1, 2, 3]));
      expectReferenceIds(whole);
      // The SDK's default: split in two parts (pages 1-2 and 3), sent 5 at a time.
      const split = await partition('reliance.pdf', reliance, { strategy: Strategy.Fast });
      expect(ids(split)).toEqual(ids(whole));
      const range = await partition('reliance.pdf', reliance, { strategy: Strategy.Fast, splitPdfPageRange: [2, 3] });
      expect(ids(range)).toEqual(ids(whole.filter((e) => e.metadata.page_number! >= 2)));
      const fromTen = await partition('reliance.pdf', reliance, {
        strategy: Strategy.Fast,
        splitPdfPage: true,
        splitPdfConcurrencyLevel: 1,
        startingPageNumber: 10,
      });
      expect(fromTen.map((e) => [e.metadata.page_number, e.text])).toEqual(whole.map((e) => [e.metadata.page_number! + 9, e.text]));
      expectReferenceIds(fromTen);
    });

    it('split_pdf_allow_failed: a failed part drops its pages when allowed and fails the call otherwise', async () => {
      // A network that loses the part starting at page 3 (the server answers the others).
      const flaky = new HTTPClient({
        fetcher: async (input, init) => {
          const req = new Request(input, init);
          const type = req.headers.get('content-type') ?? '';
          if (type.startsWith('multipart/form-data') && (await req.clone().formData()).get('starting_page_number') === '3') {
            return new Response(JSON.stringify({ detail: 'lost on the way' }), { status: 500, headers: { 'content-type': 'application/json' } });
          }
          return fetch(req);
        },
      });
      const sdk = new UnstructuredClient({ serverURL: t.origin, security: { apiKeyAuth: KEYS.acme }, httpClient: flaky });
      const whole = await wholeFast();
      const partial = await partition('reliance.pdf', reliance, { strategy: Strategy.Fast, splitPdfAllowFailed: true }, sdk);
      expect(ids(partial)).toEqual(ids(whole.filter((e) => e.metadata.page_number! <= 2)));
      await expect(partition('reliance.pdf', reliance, { strategy: Strategy.Fast, splitPdfAllowFailed: false }, sdk)).rejects.toThrow();
    });

    it.each([
      ['basic', {}, false],
      ['by_title', {}, false],
      // Combining small sections (by default up to max_characters) joins the end of one page to the
      // start of the next, as in the Python library: only without it are chunks page-bound.
      ['by_title', { multipageSections: false }, false],
      ['by_title', { multipageSections: false, combineUnderNChars: 0 }, true],
      ['by_page', {}, true],
      ['by_similarity', { similarityThreshold: 0.5 }, false],
    ] as const)('chunking_strategy %s %o: chunks get hash ids, none duplicated (split = unsplit: %s)', async (strategy, extra, pageBound) => {
      const params = { strategy: Strategy.Fast, chunkingStrategy: strategy, maxCharacters: 600, ...extra };
      const whole = await partition('reliance.pdf', reliance, { ...params, splitPdfPage: false });
      const split = await partition('reliance.pdf', reliance, params);
      for (const chunks of [whole, split]) {
        expect(chunks.every((c) => ['CompositeElement', 'Table', 'TableChunk'].includes(c.type) && c.text.length <= 600)).toBe(true);
        expectReferenceIds(chunks);
      }
      // Chunks that never span pages are the same whether the PDF was split or not.
      if (pageBound) expect(ids(split)).toEqual(ids(whole));
    });

    it('by_similarity honours similarity_threshold', async () => {
      const count = async (threshold: number) =>
        (
          await partition('reliance.pdf', reliance, {
            strategy: Strategy.Fast,
            splitPdfPage: false,
            chunkingStrategy: 'by_similarity',
            maxCharacters: 2000,
            similarityThreshold: threshold,
          })
        ).length;
      expect(await count(0.99)).toBeGreaterThan(await count(0.01));
    });

    it("LangChain's UnstructuredLoader loads the same elements as documents", async () => {
      const whole = await wholeFast();
      const apiUrl = `${t.origin}/general/v0/general`;
      const docs = await new UnstructuredLoader(reliancePath, { apiUrl, apiKey: KEYS.acme, strategy: 'fast' }).load();
      const withText = whole.filter((e) => e.text !== '');
      expect(docs.map((d) => d.pageContent)).toEqual(withText.map((e) => e.text));
      expect(docs.map((d) => d.metadata.category)).toEqual(withText.map((e) => e.type));
      expect(docs.every((d) => d.metadata.filename === 'reliance.pdf')).toBe(true);
      const chunks = await new UnstructuredLoader(
        { buffer: Buffer.from(reliance), fileName: 'reliance.pdf' },
        { apiUrl, apiKey: KEYS.acme, strategy: 'fast', chunkingStrategy: 'by_title', maxCharacters: 800 },
      ).load();
      expect(chunks.length).toBeGreaterThan(0);
      expect(chunks.every((d) => d.metadata.category === 'CompositeElement' || d.metadata.category === 'Table')).toBe(true);
    });
  });

  it.each([Strategy.HiRes, Strategy.Auto])('%s: split and unsplit calls give the same ids, none duplicated', async (strategy) => {
    const whole = await partition('fixture.pdf', fixture, { strategy, splitPdfPage: false });
    expect(whole.map((e) => e.metadata.page_number)).toEqual([1, 2, 3]);
    expectReferenceIds(whole);
    expect(ids(await partition('fixture.pdf', fixture, { strategy }))).toEqual(ids(whole));
  });

  it('vlm: pages read by the configured vision model, same ids split and unsplit, none duplicated', async () => {
    chat.requests.length = 0;
    const whole = await partition('fixture.pdf', fixture, { strategy: Strategy.Vlm, splitPdfPage: false });
    expect(whole.map((e) => [e.type, e.text, e.metadata.page_number])).toEqual(
      [1, 2, 3].flatMap((p) => [
        ['Title', 'Quarterly report', p],
        ['NarrativeText', 'Revenue grew in every region.', p],
      ]),
    );
    expectReferenceIds(whole);
    const split = await partition('fixture.pdf', fixture, { strategy: Strategy.Vlm, vlmModel: 'gpt-4o-mini', vlmModelProvider: VLMModelProvider.Openai });
    expect(ids(split)).toEqual(ids(whole));
    expect(chat.requests.map((r) => r.images)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(chat.requests.map((r) => r.model).sort()).toEqual(['gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o-mini', 'gpt-4o-mini', 'gpt-4o-mini']);
    const other = await partition('fixture.pdf', fixture, { strategy: Strategy.Vlm, splitPdfPage: false, vlmModelProvider: VLMModelProvider.Anthropic }).catch(
      (e: unknown) => e,
    );
    expect(other).toBeInstanceOf(HTTPValidationError);
    expect((other as HTTPValidationError).detail).toBe('vlm_model_provider anthropic is not available on this server; its vision model provider is openai');
  });

  it('ocr_only over a page range: the page is OCR-read and hashed with its page number in the whole document', async () => {
    const page3 = await partition('fixture.pdf', fixture, { strategy: Strategy.OcrOnly, splitPdfPageRange: [3, 3] });
    expect(page3.map((e) => e.metadata.page_number)).toEqual(page3.map(() => 3));
    expect(page3.map((e) => e.text).join(' ')).toContain('section 3');
    expectReferenceIds(page3);
  });

  const bookName = 'book-war-and-peace-1p.txt';
  const bookExpected = path.resolve(corpusDir, '..', 'expected', `${bookName}.json`);
  it.skipIf(!existsSync(bookExpected))(`keeps the reference ids of a document the corpus has an output for (skipped without ${bookExpected})`, async () => {
    const name = bookName;
    const expectedFile = bookExpected;
    const got = await partition(name, new Uint8Array(readFileSync(path.join(corpusDir, name))), { strategy: Strategy.Fast });
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as Out[];
    expect(ids(got)).toEqual(ids(expected));
  });

  it('refuses od_only (a hosted-only strategy) with the list of strategies', async () => {
    const od = await partition('fixture.pdf', fixture, { strategy: Strategy.OdOnly, splitPdfPage: false }).catch((e: unknown) => e);
    expect(od).toBeInstanceOf(SDKError);
    expect((od as SDKError).statusCode).toBe(400);
    expect((od as SDKError).body).toContain("Must be one of ['fast', 'hi_res', 'auto', 'ocr_only', 'vlm']");
  });

  it('a server without an embedder or a VLM provider answers 422 naming the option', async () => {
    const bare = await startServer({ dataDir: path.join(tmp.dir, 'bare') });
    try {
      const sdk = new UnstructuredClient({ serverURL: bare.origin, security: { apiKeyAuth: KEYS.acme } });
      // Unsplit: the SDK turns a failed split part into a 500 and retries it.
      const sim = await partition('fixture.pdf', fixture, { strategy: Strategy.Fast, splitPdfPage: false, chunkingStrategy: 'by_similarity' }, sdk).catch(
        (e: unknown) => e,
      );
      expect(sim).toBeInstanceOf(HTTPValidationError);
      expect((sim as HTTPValidationError).statusCode).toBe(422);
      expect(String((sim as HTTPValidationError).detail)).toContain('--similarity-embedder');
      const vlm = await partition('fixture.pdf', fixture, { strategy: Strategy.Vlm, splitPdfPage: false }, sdk).catch((e: unknown) => e);
      expect(vlm).toBeInstanceOf(HTTPValidationError);
      expect(String((vlm as HTTPValidationError).detail)).toContain('--vlm-provider');
    } finally {
      await bare.close();
    }
  });
});
