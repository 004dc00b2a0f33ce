import { isQuarryError } from '@quarry/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createBedrockProvider } from '../../src/providers/bedrock.js';
import { startLoopbackServer, type LoopbackServer } from '../support/loopback-server.js';
import { bedrockError, bedrockWire, fakeVector } from '../support/provider-wire.js';
import { recordingClock } from '../support/recording-clock.js';
import { caught } from '../support/caught.js';

const ACCESS = 'AKIDTESTACCESSKEY123';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYTESTSECRET';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function provider(url: string, extra: Parameters<typeof createBedrockProvider>[0] = {}) {
  return createBedrockProvider({ baseURL: url, region: 'us-west-2', accessKeyId: ACCESS, secretAccessKey: SECRET, ...extra });
}

describe('bedrock provider on @aws-sdk/client-bedrock-runtime', () => {
  it('embeds with Titan v2 through InvokeModel, one signed request per text', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    const r = await provider(server.url).embed!({ model: 'amazon.titan-embed-text-v2:0', inputs: ['first text', 'second'] });
    expect(r.vectors).toEqual([fakeVector('first text', 1024), fakeVector('second', 1024)]);
    expect(r.usage.inputTokens).toBe(3);
    expect(server.requests).toHaveLength(2);
    const req = server.requests.find((q) => (q.json as { inputText: string }).inputText === 'first text')!;
    expect(req.path).toBe('/model/amazon.titan-embed-text-v2%3A0/invoke');
    expect(req.json).toEqual({ inputText: 'first text', normalize: true });
    // SigV4: the credential scope names the key id, region and service; the secret never travels.
    expect(req.headers.authorization).toMatch(
      new RegExp(`^AWS4-HMAC-SHA256 Credential=${ACCESS}/\\d{8}/us-west-2/bedrock/aws4_request, SignedHeaders=[:a-z0-9;-]+, Signature=[0-9a-f]{64}$`),
    );
    expect(req.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
    expect(JSON.stringify(req.headers)).not.toContain(SECRET);
  });

  it('embeds with Cohere v3 in one call per 96 texts, never truncating', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    const inputs = Array.from({ length: 100 }, (_, i) => `text number ${i}`);
    const r = await provider(server.url).embed!({ model: 'cohere.embed-english-v3', inputs });
    expect(r.vectors).toEqual(inputs.map((t) => fakeVector(t, 1024)));
    expect(server.requests.map((q) => (q.json as { texts: string[] }).texts.length)).toEqual([96, 4]);
    expect(server.requests[0]!.json).toMatchObject({ input_type: 'search_document', truncate: 'NONE' });
  });

  it('chats through Converse with system text and image bytes', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    const r = await provider(server.url).chat!({
      model: 'us.anthropic.claude-sonnet-4-20250514-v1:0',
      system: 'sys',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', mimeType: 'image/png', data: Buffer.from('png-bytes').toString('base64') },
            { type: 'text', text: 'describe' },
          ],
        },
      ],
      maxTokens: 20,
      temperature: 0.2,
    });
    expect(JSON.parse(r.text)).toEqual({ echo: 'describe', images: 1, system: [{ text: 'sys' }] });
    expect(r.usage).toEqual({ inputTokens: 10, outputTokens: 5 });
    const req = server.requests[0]!;
    expect(req.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse');
    const sent = req.json as { inferenceConfig: unknown; messages: Array<{ content: Array<{ image?: { format: string; source: { bytes: string } } }> }> };
    expect(sent.inferenceConfig).toEqual({ maxTokens: 20, temperature: 0.2 });
    expect(sent.messages[0]!.content[0]!.image).toEqual({ format: 'png', source: { bytes: Buffer.from('png-bytes').toString('base64') } });
  });

  it('retries ThrottlingException (429) honouring Retry-After, then succeeds', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    server.inject(bedrockError(429, 'ThrottlingException', 'Too many requests', { 'retry-after': '2' }), 2);
    const { clock, sleeps } = recordingClock();
    const r = await provider(server.url, { clock }).embed!({ model: 'amazon.titan-embed-text-v1', inputs: ['x'] });
    expect(r.vectors[0]).toEqual(fakeVector('x', 1536));
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('maps 403 AccessDeniedException to PROVIDER_AUTH without retrying', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    server.inject(bedrockError(403, 'AccessDeniedException', 'not authorized'));
    const e = await caught(provider(server.url).embed!({ model: 'amazon.titan-embed-text-v1', inputs: ['x'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_AUTH');
    expect(server.requests).toHaveLength(1);
  });

  it('one failing Titan call fails the batch and cancels its sibling calls', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    server.inject({ hang: true }, 1, (q) => (q.json as { inputText?: string }).inputText === 'slow');
    server.inject(bedrockError(400, 'ValidationException', 'too long'), 1, (q) => (q.json as { inputText?: string }).inputText === 'bad');
    const e = await caught(provider(server.url).embed!({ model: 'amazon.titan-embed-text-v2:0', inputs: ['slow', 'bad'] }));
    expect(isQuarryError(e) && e.code).toBe('PROVIDER_BAD_REQUEST');
    const slow = server.requests.find((q) => (q.json as { inputText: string }).inputText === 'slow')!;
    await expect.poll(() => slow.aborted).toBe(true);
  });

  it('cancels an in-flight InvokeModel when the signal aborts', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    server.inject({ hang: true });
    const controller = new AbortController();
    const pending = caught(provider(server.url).embed!({ model: 'amazon.titan-embed-text-v1', inputs: ['x'], signal: controller.signal }));
    await server.received(1);
    controller.abort();
    const e = await pending;
    expect(isQuarryError(e) && e.code).toBe('JOB_ABORTED');
    await expect.poll(() => server!.requests[0]!.aborted).toBe(true);
  });

  it('reads AWS_* credentials, region and endpoint from the environment', async () => {
    server = await startLoopbackServer(bedrockWire(), { http2: true });
    const p = createBedrockProvider({
      env: { AWS_ACCESS_KEY_ID: ACCESS, AWS_SECRET_ACCESS_KEY: SECRET, AWS_REGION: 'eu-central-1', AWS_ENDPOINT_URL_BEDROCK_RUNTIME: server.url },
    });
    await p.embed!({ model: 'amazon.titan-embed-text-v1', inputs: ['x'] });
    expect(server.requests[0]!.headers.authorization).toContain(`${ACCESS}/`);
    expect(server.requests[0]!.headers.authorization).toContain('/eu-central-1/bedrock/aws4_request');
  });
});
