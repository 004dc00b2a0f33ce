import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../../src/providers/openai.js';
import { ProviderPool } from '../../src/providers/pool.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { fakeVector, openAIError, openAIWire } from '../support/provider-wire.js';
import { recordingClock } from '../support/recording-clock.js';
import { caught } from '../support/caught.js';

const KEY = 'sk-test-0123456789abcdefghijklmnop';
const dims = (model: string): number => (model === 'text-embedding-3-large' ? 3072 : 1536);

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('openai provider on the OpenAI SDK', () => {
  it('embeds a batch in input order with the key as a bearer token', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1` });
    const inputs = ['alpha beta', 'gamma', 'delta epsilon zeta'];
    const r = await p.embed!({ model: 'text-embedding-3-small', inputs });
    expect(r.vectors).toHaveLength(3);
    inputs.forEach((t, i) => expect(r.vectors[i]).toEqual(fakeVector(t, 1536)));
    expect(r.usage.inputTokens).toBe(6);
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/embeddings');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.json).toMatchObject({ model: 'text-embedding-3-small', input: inputs, encoding_format: 'float' });
  });

  it('chats with a system prompt, an image and JSON mode', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1` });
    const r = await p.chat!({
      model: 'gpt-4o',
      system: 'be brief',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'describe' },
            { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          ],
        },
      ],
      maxTokens: 50,
      temperature: 0,
      json: true,
    });
    expect(JSON.parse(r.text)).toEqual({ echo: 'describe', images: 1, json_mode: true });
    expect(r.usage).toEqual({ inputTokens: 11, outputTokens: 7 });
    const sent = server.requests[0]!.json as { messages: Array<{ role: string; content: unknown }>; max_completion_tokens: number };
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'be brief' });
    expect(JSON.stringify(sent.messages[1])).toContain('data:image/png;base64,iVBORw0KGgo=');
    expect(sent.max_completion_tokens).toBe(50);
  });

  it('retries 429 twice, waiting exactly what Retry-After asks, then succeeds', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject(openAIError(429, 'Rate limit reached', { 'retry-after': '3' }));
    server.inject(openAIError(429, 'Rate limit reached', { 'retry-after': '1' }));
    const { clock, sleeps } = recordingClock();
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, clock });
    const r = await p.embed!({ model: 'text-embedding-3-small', inputs: ['one', 'two'] });
    expect(r.vectors).toEqual([fakeVector('one', 1536), fakeVector('two', 1536)]);
    expect(server.requests).toHaveLength(3);
    // The retry waits, and the key's limiter is paused for the same time (it sees the wait as over).
    expect(sleeps).toEqual([3000, 1000]);
  });

  it('honours an HTTP-date Retry-After and the retry-after-ms header', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject(openAIError(429, 'slow down', { 'retry-after-ms': '250' }));
    server.inject(openAIError(503, 'busy', { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }));
    const { clock, sleeps } = recordingClock();
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, clock });
    await p.embed!({ model: 'text-embedding-3-small', inputs: ['x'] });
    expect(sleeps[0]).toBe(250);
    // An HTTP date one minute ahead (second precision) means a wait of 59-60 s.
    expect(sleeps[1]).toBeGreaterThanOrEqual(58_000);
    expect(sleeps[1]).toBeLessThanOrEqual(60_000);
  });

  it('backs off exponentially with jitter on 500s and gives up with PROVIDER_UNAVAILABLE', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject(openAIError(500, 'internal'), 4);
    const { clock, sleeps } = recordingClock();
    const p = createOpenAIProvider('openai', {
      apiKey: KEY,
      baseURL: `${server.url}/v1`,
      clock,
      random: () => 0.5,
      retry: { maxRetries: 3, baseDelayMs: 100 },
    });
    const e = await caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_UNAVAILABLE');
    expect((e as Error).message).toMatch(/HTTP 500 .*after 4 attempts/);
    expect(server.requests).toHaveLength(4);
    // equal jitter with random 0.5: 0.75 x 100 x 2^n
    expect(sleeps).toEqual([75, 150, 300]);
  });

  it('fails at once when Retry-After asks for more than maxRetryAfterMs', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject(openAIError(429, 'quota exhausted', { 'retry-after': '3600' }));
    const { clock, sleeps } = recordingClock();
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, clock });
    const e = await caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_RATE_LIMITED');
    expect((e as Error).message).toContain('asked to wait 3600 s');
    expect(sleeps).toEqual([]);
  });

  it('times out a request that never answers and retries it', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject({ hang: true });
    const { clock } = recordingClock();
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, clock, retry: { timeoutMs: 1500 } });
    const r = await p.embed!({ model: 'text-embedding-3-small', inputs: ['late'] });
    expect(r.vectors[0]).toEqual(fakeVector('late', 1536));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it('reports PROVIDER_TIMEOUT when every attempt times out', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject({ hang: true }, 2);
    const { clock } = recordingClock();
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, clock, retry: { timeoutMs: 200, maxRetries: 1 } });
    const e = await caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['late'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_TIMEOUT');
  });

  it('cancels the request in flight when the signal aborts', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject({ hang: true });
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1` });
    const controller = new AbortController();
    const pending = caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['x'], signal: controller.signal }));
    await server.received(1);
    controller.abort(new Error('stop'));
    const e = await pending;
    expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
    // The server sees the connection dropped: nothing keeps running after the abort.
    await expect.poll(() => server!.requests[0]!.aborted).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('never echoes the key in an error, even when the server does', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    server.inject(openAIError(401, `Incorrect API key provided: ${KEY}. Also ${KEY.slice(0, 12)}****${KEY.slice(-4)}`));
    const p = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1` });
    const e = await caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_AUTH');
    const all = `${(e as Error).message} ${JSON.stringify(e)} ${String((e as Error).cause)}`;
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(KEY.slice(0, 12));
    expect(server.requests).toHaveLength(1);
  });

  it('says which setting and environment variable are missing', async () => {
    const p = createOpenAIProvider('openai', { env: {} });
    const e = await caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((e as Error).message).toContain('OPENAI_API_KEY');
  });

  it('reads the key and base URL from the environment', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    const p = createOpenAIProvider('openai', { env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` } });
    await p.embed!({ model: 'text-embedding-3-large', inputs: ['x'] });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('shares one rate budget per key across providers of the same pool', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    const { clock, sleeps } = recordingClock();
    const pool = new ProviderPool(clock);
    const a = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, pool, limits: { requestsPerMinute: 2 } });
    const b = createOpenAIProvider('openai', { apiKey: KEY, baseURL: `${server.url}/v1`, pool });
    await a.embed!({ model: 'text-embedding-3-small', inputs: ['1'] });
    await b.embed!({ model: 'text-embedding-3-small', inputs: ['2'] });
    expect(sleeps).toEqual([]);
    // The third request on the key must wait for the bucket to refill: 30 s for one of 2/minute.
    await b.embed!({ model: 'text-embedding-3-small', inputs: ['3'] });
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(29_000);
    expect(sleeps[0]).toBeLessThanOrEqual(30_000);
  });
});

describe('azure_openai, togetherai and voyageai through the OpenAI SDK', () => {
  it('azure_openai calls the deployment path with api-key and api-version', async () => {
    server = await startLoopbackServer(openAIWire(dims));
    const p = createOpenAIProvider('azure_openai', { apiKey: KEY, baseURL: server.url, apiVersion: '2024-10-21' });
    const r = await p.embed!({ model: 'text-embedding-3-small', inputs: ['hi'] });
    expect(r.vectors[0]).toEqual(fakeVector('hi', 1536));
    const req = server.requests[0]!;
    expect(req.path).toBe('/openai/deployments/text-embedding-3-small/embeddings');
    expect(req.query.get('api-version')).toBe('2024-10-21');
    expect(req.headers['api-key']).toBe(KEY);
  });

  it('azure_openai needs an endpoint', async () => {
    const p = createOpenAIProvider('azure_openai', { apiKey: KEY, env: {} });
    const e = await caught(p.embed!({ model: 'text-embedding-3-small', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((e as Error).message).toContain('AZURE_OPENAI_ENDPOINT');
  });

  it('togetherai reads TOGETHER_API_KEY', async () => {
    server = await startLoopbackServer(openAIWire(() => 768));
    const p = createOpenAIProvider('togetherai', { env: { TOGETHER_API_KEY: KEY }, baseURL: `${server.url}/v1` });
    const r = await p.embed!({ model: 'togethercomputer/m2-bert-80M-32k-retrieval', inputs: ['a b'] });
    expect(r.vectors[0]).toEqual(fakeVector('a b', 768));
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('voyageai asks for document embeddings without truncation and decodes base64 vectors', async () => {
    server = await startLoopbackServer(openAIWire(() => 1024));
    const p = createOpenAIProvider('voyageai', { env: { VOYAGE_API_KEY: KEY, VOYAGE_BASE_URL: `${server.url}/v1` } });
    expect(p.chat).toBeUndefined();
    const r = await p.embed!({ model: 'voyage-3', inputs: ['x y', 'z'] });
    expect(r.vectors).toEqual([fakeVector('x y', 1024), fakeVector('z', 1024)]);
    expect(server.requests[0]!.json).toMatchObject({ input_type: 'document', truncation: false, encoding_format: 'base64' });
  });
});
