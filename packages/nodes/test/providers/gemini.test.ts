import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiProvider } from '../../src/providers/gemini.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { fakeVector, geminiWire, googleError } from '../support/provider-wire.js';
import { recordingClock } from '../support/recording-clock.js';
import { caught } from '../support/caught.js';

const KEY = 'AIzaSyTESTKEY-0123456789abcdefghij';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('vertexai (Gemini) provider on @google/genai', () => {
  it('calls generateContent with system instruction, inline image and JSON mode', async () => {
    server = await startLoopbackServer(geminiWire());
    const p = createGeminiProvider({ apiKey: KEY, baseURL: server.url, vertexai: false });
    const r = await p.chat!({
      model: 'gemini-2.0-flash-001',
      system: 'be exact',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'table?' },
            { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          ],
        },
      ],
      maxTokens: 30,
      json: true,
    });
    const answer = JSON.parse(r.text) as { echo: string; images: number; json_mode: boolean; system: { parts: Array<{ text: string }> } };
    expect(answer).toMatchObject({ echo: 'table?', images: 1, json_mode: true });
    expect(answer.system.parts[0]!.text).toBe('be exact');
    expect(r.usage).toEqual({ inputTokens: 8, outputTokens: 4 });
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1beta/models/gemini-2.0-flash-001:generateContent');
    expect(req.headers['x-goog-api-key']).toBe(KEY);
    expect((req.json as { generationConfig: unknown }).generationConfig).toMatchObject({ maxOutputTokens: 30 });
  });

  it('embeds a batch through batchEmbedContents', async () => {
    server = await startLoopbackServer(geminiWire(768));
    const p = createGeminiProvider({ apiKey: KEY, baseURL: server.url, vertexai: false });
    const r = await p.embed!({ model: 'text-embedding-004', inputs: ['a', 'b c'] });
    expect(r.vectors).toEqual([fakeVector('a', 768), fakeVector('b c', 768)]);
    expect(server.requests[0]!.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');
  });

  it('retries 429 using the Retry-After header, else the RetryInfo delay in the body', async () => {
    server = await startLoopbackServer(geminiWire());
    server.inject(googleError(429, 'quota', undefined, { 'retry-after': '4' }));
    server.inject(googleError(429, 'quota', '7s'));
    server.inject(googleError(503, 'unavailable'));
    const { clock, sleeps } = recordingClock();
    const p = createGeminiProvider({ apiKey: KEY, baseURL: server.url, vertexai: false, clock, random: () => 1 });
    const r = await p.chat!({ model: 'gemini-2.0-flash-001', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 });
    expect(JSON.parse(r.text)).toMatchObject({ echo: 'hi' });
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([4000, 7000, 2000]);
  });

  it('cancels the request in flight on abort', async () => {
    server = await startLoopbackServer(geminiWire());
    server.inject({ hang: true });
    const controller = new AbortController();
    const p = createGeminiProvider({ apiKey: KEY, baseURL: server.url, vertexai: false });
    const pending = caught(p.embed!({ model: 'text-embedding-004', inputs: ['a'], signal: controller.signal }));
    await server.received(1);
    controller.abort();
    const e = await pending;
    expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
    await expect.poll(() => server!.requests[0]!.aborted).toBe(true);
  });

  it('hides the key in errors', async () => {
    server = await startLoopbackServer(geminiWire());
    server.inject(googleError(400, `API key not valid: ${KEY}`));
    const p = createGeminiProvider({ apiKey: KEY, baseURL: server.url, vertexai: false });
    const e = await caught(p.chat!({ model: 'gemini-2.0-flash-001', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_BAD_REQUEST');
    expect(`${(e as Error).message}${JSON.stringify(e)}${String((e as Error).cause)}`).not.toContain(KEY);
  });

  it('reads GOOGLE_API_KEY and GOOGLE_GEMINI_BASE_URL; Vertex needs a project or a key', async () => {
    server = await startLoopbackServer(geminiWire());
    const p = createGeminiProvider({ env: { GOOGLE_API_KEY: KEY, GOOGLE_GEMINI_BASE_URL: server.url } });
    await p.chat!({ model: 'gemini-2.0-flash-001', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 });
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe(KEY);
    const vertex = createGeminiProvider({ env: { GOOGLE_GENAI_USE_VERTEXAI: 'true' } });
    const e = await caught(vertex.chat!({ model: 'gemini-2.0-flash-001', messages: [{ role: 'user', content: 'hi' }], maxTokens: 5 }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((e as Error).message).toContain('GOOGLE_CLOUD_PROJECT');
  });
});
