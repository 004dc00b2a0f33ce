import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { anthropicError, anthropicWire } from '../support/provider-wire.js';
import { recordingClock } from '../support/recording-clock.js';
import { caught } from '../support/caught.js';

const KEY = 'sk-ant-api03-TESTKEY0123456789abcdef';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('anthropic provider on @anthropic-ai/sdk', () => {
  it('sends a Messages API request with system, base64 image and the key', async () => {
    server = await startLoopbackServer(anthropicWire());
    const p = createAnthropicProvider({ apiKey: KEY, baseURL: server.url });
    expect(p.embed).toBeUndefined();
    const r = await p.chat!({
      model: 'claude-sonnet-4-20250514',
      system: 'describe images',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', mimeType: 'image/jpeg', data: '/9j/4AAQ' },
            { type: 'text', text: 'what is this?' },
          ],
        },
      ],
      maxTokens: 64,
    });
    expect(JSON.parse(r.text)).toEqual({ echo: 'what is this?', images: 1, system: 'describe images' });
    expect(r.usage).toEqual({ inputTokens: 12, outputTokens: 9 });
    const req = server.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['anthropic-version']).toBeDefined();
    expect(req.json).toMatchObject({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 64,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
            { type: 'text', text: 'what is this?' },
          ],
        },
      ],
    });
  });

  it('asks for JSON by instruction, since the API has no JSON mode', async () => {
    server = await startLoopbackServer(anthropicWire());
    const p = createAnthropicProvider({ apiKey: KEY, baseURL: server.url });
    const r = await p.chat!({ model: 'claude-sonnet-4-20250514', system: 'extract', messages: [{ role: 'user', content: 'x' }], maxTokens: 10, json: true });
    expect((JSON.parse(r.text) as { system: string }).system).toMatch(/^extract\n\nAnswer with a single JSON object/);
  });

  it('retries 429 (HTTP-date Retry-After) and 529 overloaded, then answers', async () => {
    server = await startLoopbackServer(anthropicWire());
    server.inject(anthropicError(429, 'rate_limit_error', 'slow down', { 'retry-after': new Date(Date.now() + 5_000).toUTCString() }));
    server.inject(anthropicError(529, 'overloaded_error', 'Overloaded'));
    const { clock, sleeps } = recordingClock();
    const p = createAnthropicProvider({ apiKey: KEY, baseURL: server.url, clock, random: () => 0 });
    const r = await p.chat!({ model: 'claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 });
    expect(JSON.parse(r.text)).toMatchObject({ echo: 'hi' });
    expect(server.requests).toHaveLength(3);
    expect(sleeps[0]).toBeGreaterThanOrEqual(3_000);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000);
    // no Retry-After on the 529 (second retry): backoff 500 x 2, random 0 gives half of it
    expect(sleeps[1]).toBe(500);
  });

  it('maps 400 to PROVIDER_BAD_REQUEST without retrying, and hides the key', async () => {
    server = await startLoopbackServer(anthropicWire());
    server.inject(anthropicError(400, 'invalid_request_error', `max_tokens too large for key ${KEY}`));
    const p = createAnthropicProvider({ apiKey: KEY, baseURL: server.url });
    const e = await caught(p.chat!({ model: 'claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_BAD_REQUEST');
    expect((e as Error).message).toContain('max_tokens too large');
    expect(`${(e as Error).message}${JSON.stringify(e)}${String((e as Error).cause)}`).not.toContain(KEY);
    expect(server.requests).toHaveLength(1);
  });

  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', async () => {
    server = await startLoopbackServer(anthropicWire());
    const p = createAnthropicProvider({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url } });
    await p.chat!({ model: 'claude-sonnet-4-20250514', messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 });
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
