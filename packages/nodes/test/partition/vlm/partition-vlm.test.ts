import { afterEach, describe, expect, it } from 'vitest';
import { hashElementId, isQuarryError, type Element } from '@quarry/core';
import { partitionWithVlm, type VlmPartitionRequest } from '../../../src/partition/vlm/partition-vlm.js';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from '../../support/loopback-server.js';
import { anthropicError } from '../../support/provider-wire.js';
import { makePdf, textLines } from '../formats/pdf/fixture.js';
import { answeringWire, requestImages, wireEnv, type WireProvider } from './vlm-wire.js';

const KEY = 'sk-test-vlm-secret-key-0123456789abcdef';
const MODELS: Record<WireProvider, string> = {
  anthropic: 'claude-sonnet-4-20250514',
  bedrock: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
  openai: 'gpt-4o',
  vertexai: 'gemini-2.0-flash-001',
};

// Page 1: text; page 2: a picture and no text layer.
const PDF = makePdf([
  { texts: textLines(['Quarterly report', 'Revenue grew in every region during the quarter, led by strong demand for the new product line.']) },
  { images: [{ x: 50, y: 50, width: 500, height: 690 }] },
]);

const pageOf = (req: RecordedRequest): number => Number(/Page (\d+)/.exec(req.body)?.[1] ?? 0);
const htmlAnswer = (req: RecordedRequest): string =>
  pageOf(req) === 1
    ? '```html\n<h1 data-category="Title">Quarterly report</h1>\n<p data-category="NarrativeText">Revenue grew in every region.</p>\n```'
    : '<ul data-category="ListItem"><li>North</li><li>South</li></ul><table data-category="Table"><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>10</td></tr></table><footer data-category="Footer">Page 2</footer>';
const jsonAnswer = (req: RecordedRequest): string =>
  JSON.stringify({
    elements:
      pageOf(req) === 1
        ? [
            { type: 'Title', text: 'Quarterly report' },
            { type: 'NarrativeText', text: 'Revenue grew in every region.' },
          ]
        : [
            {
              type: 'Table',
              text: 'Region Sales North 10',
              text_as_html: '<table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>10</td></tr></table>',
            },
          ],
  });

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function request(provider: WireProvider, env: Record<string, string>, extra: Partial<VlmPartitionRequest> = {}): VlmPartitionRequest {
  return {
    filename: 'docs/report.pdf',
    provider,
    model: MODELS[provider],
    output_format: 'text/html',
    format_html: true,
    unique_element_ids: false,
    is_dynamic: false,
    allow_fast: false,
    env,
    ...extra,
  };
}

const summary = (els: Element[]) => els.map((e) => [e.type, e.text, e.metadata.page_number]);

describe.each(['anthropic', 'bedrock', 'openai', 'vertexai'] as const)('VLM partitioning through %s', (provider) => {
  it('reads both pages as HTML, with page numbers, and sends each page image', async () => {
    server = await startLoopbackServer(answeringWire(provider, htmlAnswer), { http2: provider === 'bedrock' });
    const els = await partitionWithVlm(PDF, request(provider, wireEnv(provider, server.url, KEY)));
    expect(summary(els)).toEqual([
      ['Title', 'Quarterly report', 1],
      ['NarrativeText', 'Revenue grew in every region.', 1],
      ['ListItem', 'North', 2],
      ['ListItem', 'South', 2],
      ['Table', 'Region Sales North 10', 2],
      ['Footer', 'Page 2', 2],
    ]);
    const table = els[4]!;
    expect(table.metadata.text_as_html).toBe(
      '<table>\n  <tr>\n    <th>Region</th>\n    <th>Sales</th>\n  </tr>\n  <tr>\n    <td>North</td>\n    <td>10</td>\n  </tr>\n</table>',
    );
    expect(table.metadata.table_extraction_method).toBe('vlm');
    for (const el of els) {
      expect(el.metadata).toMatchObject({ filename: 'report.pdf', file_directory: 'docs', filetype: 'application/pdf', routing: 'vlm' });
      expect(el.element_id).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(els[1]!.metadata.parent_id).toBe(els[0]!.element_id);
    const chats = server.requests.filter((r) => pageOf(r) > 0);
    expect(chats.map(pageOf).sort()).toEqual([1, 2]);
    for (const r of chats) {
      const images = requestImages(provider, r);
      expect(images).toHaveLength(1);
      expect(Buffer.from(images[0]!, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(decodeURIComponent(r.url) + JSON.stringify(r.json)).toContain(MODELS[provider]);
    }
  });

  it('reads element JSON with output_format application/json', async () => {
    server = await startLoopbackServer(answeringWire(provider, jsonAnswer), { http2: provider === 'bedrock' });
    const els = await partitionWithVlm(PDF, request(provider, wireEnv(provider, server.url, KEY), { output_format: 'application/json', format_html: false }));
    expect(summary(els)).toEqual([
      ['Title', 'Quarterly report', 1],
      ['NarrativeText', 'Revenue grew in every region.', 1],
      ['Table', 'Region Sales North 10', 2],
    ]);
    expect(els[2]!.metadata.text_as_html).toBe('<table><tr><th>Region</th><th>Sales</th></tr><tr><td>North</td><td>10</td></tr></table>');
  });
});

describe('Auto partitioning', () => {
  it('routes a text page to fast and an image-only page to the vision model, recording the route', async () => {
    server = await startLoopbackServer(answeringWire('anthropic', htmlAnswer));
    const els = await partitionWithVlm(PDF, request('anthropic', wireEnv('anthropic', server.url, KEY), { is_dynamic: true, allow_fast: true }));
    const page1 = els.filter((e) => e.metadata.page_number === 1);
    const page2 = els.filter((e) => e.metadata.page_number === 2);
    expect(page1.map((e) => e.text).join(' ')).toContain('Revenue grew in every region during the quarter');
    for (const e of page1) expect(e.metadata.routing).toBe('fast');
    expect(page2.map((e) => e.type)).toEqual(['ListItem', 'ListItem', 'Table', 'Footer']);
    for (const e of page2) expect(e.metadata.routing).toBe('vlm');
    for (const e of els) expect(e.metadata.routing_score).toBeGreaterThanOrEqual(0.5);
    // Only the image page went to the model.
    expect(server.requests.map(pageOf)).toEqual([2]);
  });

  it('with the VLM partitioner and allow_fast, still sends picture pages to the model', async () => {
    server = await startLoopbackServer(answeringWire('openai', htmlAnswer));
    const els = await partitionWithVlm(PDF, request('openai', wireEnv('openai', server.url, KEY), { allow_fast: true }));
    expect(new Set(els.filter((e) => e.metadata.page_number === 1).map((e) => e.metadata.routing))).toEqual(new Set(['fast']));
    expect(server.requests.map(pageOf)).toEqual([2]);
  });
});

describe('VLM page numbers and endpoint', () => {
  it('numbers pages from starting_page_number before hashing ids, and reaches provider_base_url', async () => {
    server = await startLoopbackServer(answeringWire('openai', htmlAnswer));
    // No endpoint in the environment: only provider_base_url leads to the loopback server.
    const els = await partitionWithVlm(PDF, request('openai', { OPENAI_API_KEY: KEY }, { provider_base_url: `${server.url}/v1`, starting_page_number: 7 }));
    expect(els.map((e) => e.metadata.page_number)).toEqual([7, 7, 8, 8, 8, 8]);
    expect(els[0]!.element_id).toBe(hashElementId('report.pdf', 'Quarterly report', 7, 0));
    expect(els[2]!.element_id).toBe(hashElementId('report.pdf', 'North', 8, 0));
    // The model is still asked about the file's own pages.
    expect(server.requests.map(pageOf).sort()).toEqual([1, 2]);
  });
});

describe('provider failures', () => {
  it('a 401 fails the document with PROVIDER_AUTH and no key in the error', async () => {
    server = await startLoopbackServer(() => anthropicError(401, 'authentication_error', `invalid x-api-key ${KEY}`));
    const err = await partitionWithVlm(PDF, request('anthropic', wireEnv('anthropic', server.url, 'unused'), { provider_api_key: KEY })).catch(
      (e: unknown) => e,
    );
    expect(isQuarryError(err)).toBe(true);
    if (!isQuarryError(err)) return;
    expect(err.code).toBe('PROVIDER_AUTH');
    expect(err.message).toContain('report.pdf page');
    const seen = JSON.stringify({ m: err.message, d: err.details, c: String((err as Error).cause), s: err.stack });
    expect(seen).not.toContain(KEY);
    expect(seen).not.toContain(KEY.slice(0, 12));
    // The setting's key, not the environment's, was sent.
    expect(server.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(server.requests[0]!.headers)).toContain(KEY);
  });

  it('a JSON answer that is not element JSON fails with VLM_RESPONSE_INVALID', async () => {
    server = await startLoopbackServer(answeringWire('openai', () => '{"pages": 2}'));
    await expect(partitionWithVlm(PDF, request('openai', wireEnv('openai', server.url, KEY), { output_format: 'application/json' }))).rejects.toMatchObject({
      code: 'VLM_RESPONSE_INVALID',
    });
  });
});
